package dev.caldera.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;

/**
 * Objects that schedule on a real API server without kubelets or controllers, for the opt-in suite
 * (the load tool, tools/load, makes its own): a namespace that admits pods, nodes with resources,
 * and pending pods that tolerate the taint new nodes get.
 */
final class RealServerObjects {

  private RealServerObjects() {}

  /**
   * Creates {@code namespace} with its {@code default} service account: a bare API server has no
   * controller to create it, and without it pods are refused; where a controller manager runs, it
   * may create it first.
   */
  static void namespace(KubernetesClient kubectl, String namespace) {
    kubectl
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    if (kubectl.serviceAccounts().inNamespace(namespace).withName("default").get() != null) {
      return;
    }
    try {
      kubectl
          .serviceAccounts()
          .inNamespace(namespace)
          .resource(
              new ServiceAccountBuilder()
                  .withNewMetadata()
                  .withName("default")
                  .withNamespace(namespace)
                  .endMetadata()
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  /** Creates a node with these allocatable (and capacity) cpu and memory, 110 pods, one label. */
  static void node(
      KubernetesClient kubectl,
      String name,
      String label,
      String value,
      String cpu,
      String memory) {
    Map<String, Quantity> r =
        Map.of(
            "cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110"));
    kubectl
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(label, value)
                .endMetadata()
                .withNewStatus()
                .withCapacity(r)
                .withAllocatable(r)
                .endStatus()
                .build())
        .create();
  }

  /** A Volcano PodGroup of {@code minMember} in {@code queue}. */
  static GenericKubernetesResource podGroup(
      String namespace, String name, String queue, int minMember) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("scheduling.volcano.sh/v1beta1")
        .withKind("PodGroup")
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .endMetadata()
        .addToAdditionalProperties("spec", Map.of("queue", queue, "minMember", minMember))
        .build();
  }

  /**
   * A pending pod of {@code group} for {@code scheduler} that requests one cpu and 1Gi, runs only
   * on nodes labelled {@code label=value}, and tolerates {@code node.kubernetes.io/not-ready}
   * (admission taints new nodes with it, and no kubelet ever reports them ready).
   */
  static Pod pendingPod(
      String namespace, String name, String group, String scheduler, String label, String value) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToAnnotations("scheduling.k8s.io/group-name", group)
        .endMetadata()
        .withNewSpec()
        .withSchedulerName(scheduler)
        .addNewToleration()
        .withKey("node.kubernetes.io/not-ready")
        .withOperator("Exists")
        .withEffect("NoSchedule")
        .endToleration()
        .withNodeSelector(Map.of(label, value))
        .addNewContainer()
        .withName("main")
        .withImage("registry.k8s.io/pause:3.10")
        .withNewResources()
        .addToRequests("cpu", new Quantity("1"))
        .addToRequests("memory", new Quantity("1Gi"))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }
}
