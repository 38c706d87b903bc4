package dev.caldera.load;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The objects a run creates, as a real API server without kubelets or controllers takes them: nodes
 * that report themselves ready with room for many small pods, and pods that run only on the run's
 * nodes and tolerate the taints such nodes get.
 */
final class LoadObjects {

  /** The label on every node and pod of a run; its value is the run's id. */
  static final String RUN_LABEL = "caldera-load";

  /** The annotation that puts a pod in a Volcano pod group. */
  static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

  static final String VOLCANO_GROUP_VERSION = "scheduling.volcano.sh/v1beta1";

  static final ResourceDefinitionContext QUEUES =
      new ResourceDefinitionContext.Builder()
          .withGroup("scheduling.volcano.sh")
          .withVersion("v1beta1")
          .withKind("Queue")
          .withPlural("queues")
          .withNamespaced(false)
          .build();

  static final ResourceDefinitionContext POD_GROUPS =
      new ResourceDefinitionContext.Builder()
          .withGroup("scheduling.volcano.sh")
          .withVersion("v1beta1")
          .withKind("PodGroup")
          .withPlural("podgroups")
          .withNamespaced(true)
          .build();

  /** A fake node's allocatable (and capacity) resources. */
  static final Map<String, String> NODE_RESOURCES =
      Map.of("cpu", "32", "memory", "128Gi", "pods", "110");

  /**
   * How many pods of {@code shape} one fake node holds: the least its pods, CPU and memory allow.
   */
  static long podsAFakeNodeHolds(PodShape shape) {
    long holds = Long.parseLong(NODE_RESOURCES.get("pods"));
    holds = Math.min(holds, timesIn(NODE_RESOURCES.get("cpu"), shape.cpu()));
    return Math.min(holds, timesIn(NODE_RESOURCES.get("memory"), shape.memory()));
  }

  private static long timesIn(String allocatable, Quantity request) {
    BigDecimal each = request.getNumericalAmount();
    if (each.signum() <= 0) {
      return Long.MAX_VALUE;
    }
    return new Quantity(allocatable)
        .getNumericalAmount()
        .divideToIntegralValue(each)
        .min(BigDecimal.valueOf(Long.MAX_VALUE))
        .longValue();
  }

  /**
   * Taints that nodes without a kubelet get: admission taints every new node not-ready, and a node
   * lifecycle controller (where a controller manager runs) marks them unreachable. The pods
   * tolerate both, with any effect, so they schedule and stay.
   */
  private static final String[] TOLERATED = {
    "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"
  };

  private LoadObjects() {}

  static Namespace namespace(String name, String runId) {
    return new NamespaceBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(RUN_LABEL, runId)
        .endMetadata()
        .build();
  }

  /** The namespace's {@code default} service account, without which pods are refused. */
  static ServiceAccount defaultServiceAccount(String namespace) {
    return new ServiceAccountBuilder()
        .withNewMetadata()
        .withName("default")
        .withNamespace(namespace)
        .endMetadata()
        .build();
  }

  /** A ready node labelled {@code caldera-load=runId} with {@link #NODE_RESOURCES}. */
  static Node node(String name, String runId) {
    Map<String, Quantity> resources = new LinkedHashMap<>();
    NODE_RESOURCES.forEach((k, v) -> resources.put(k, new Quantity(v)));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(RUN_LABEL, runId)
        .addToLabels("kubernetes.io/hostname", name)
        .endMetadata()
        .withNewStatus()
        .withCapacity(resources)
        .withAllocatable(resources)
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .withReason("CalderaLoad")
        .withMessage("a fake node of caldera load: no kubelet runs its pods")
        .endCondition()
        .endStatus()
        .build();
  }

  /** A Volcano queue of weight 1, open and reclaimable. */
  static GenericKubernetesResource queue(String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(VOLCANO_GROUP_VERSION)
        .withKind("Queue")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToAdditionalProperties("spec", Map.of("weight", 1, "reclaimable", true))
        .build();
  }

  /**
   * A pod group as Volcano's job controller makes one: {@code minMember} pods at once, in {@code
   * queue}, with the gang's total requests as {@code minResources}.
   */
  static GenericKubernetesResource podGroup(
      String namespace, String name, String runId, String queue, int minMember, PodShape shape) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minMember", minMember);
    spec.put("queue", queue);
    spec.put(
        "minResources",
        Map.of(
            "cpu", shape.cpu().multiply(minMember).toString(),
            "memory", shape.memory().multiply(minMember).toString()));
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(VOLCANO_GROUP_VERSION)
        .withKind("PodGroup")
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToLabels(RUN_LABEL, runId)
        .endMetadata()
        .addToAdditionalProperties("spec", spec)
        .build();
  }

  /**
   * A pending pod for {@code schedulerName} that may run only on nodes with {@code nodeSelector}
   * (the run's own nodes, or the pool it was given), in pod group {@code group} when not null.
   */
  static Pod pod(
      String namespace,
      String name,
      String runId,
      String group,
      String schedulerName,
      Map<String, String> nodeSelector,
      PodShape shape) {
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .addToLabels(RUN_LABEL, runId)
            .endMetadata();
    if (group != null) {
      b.editMetadata().addToAnnotations(GROUP_ANNOTATION, group).endMetadata();
    }
    b.withNewSpec()
        .withSchedulerName(schedulerName)
        .withNodeSelector(nodeSelector)
        .withTerminationGracePeriodSeconds(0L)
        .addNewContainer()
        .withName("main")
        .withImage("registry.k8s.io/pause:3.10")
        .withNewResources()
        .addToRequests("cpu", shape.cpu())
        .addToRequests("memory", shape.memory())
        .endResources()
        .endContainer()
        .endSpec();
    for (String key : TOLERATED) {
      b.editSpec().addNewToleration().withKey(key).withOperator("Exists").endToleration().endSpec();
    }
    return b.build();
  }

  /** The requests of every pod of a run. */
  record PodShape(Quantity cpu, Quantity memory) {}
}
