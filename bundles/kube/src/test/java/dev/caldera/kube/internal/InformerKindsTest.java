package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's client searches no class path for Kubernetes kinds ({@link
 * Clients#serialization}); a watch event's object is read as the informer's class only because
 * {@link Informers} registers every kind it watches. A kind left out would reach the informer as a
 * {@code GenericKubernetesResource} and fail in its handler.
 */
class InformerKindsTest {

  /**
   * apiVersion and kind of each informer's objects, and the class the informer expects; and the
   * Status of a watch's ERROR event, which fabric8 must recognise to list again after a 410.
   */
  private static final Map<String, Class<?>> KINDS =
      Map.ofEntries(
          Map.entry("v1 Node", Node.class),
          Map.entry("v1 Pod", Pod.class),
          Map.entry("scheduling.k8s.io/v1 PriorityClass", PriorityClass.class),
          Map.entry("policy/v1 PodDisruptionBudget", PodDisruptionBudget.class),
          Map.entry("v1 ResourceQuota", ResourceQuota.class),
          Map.entry("v1 Namespace", Namespace.class),
          Map.entry("v1 PersistentVolume", PersistentVolume.class),
          Map.entry("v1 PersistentVolumeClaim", PersistentVolumeClaim.class),
          Map.entry("storage.k8s.io/v1 StorageClass", StorageClass.class),
          Map.entry("storage.k8s.io/v1 CSINode", CSINode.class),
          Map.entry("v1 Status", Status.class),
          Map.entry("scheduling.volcano.sh/v1beta1 Queue", GenericKubernetesResource.class),
          Map.entry("scheduling.volcano.sh/v1beta1 PodGroup", GenericKubernetesResource.class));

  @Test
  void everyWatchedKind_isReadFromAWatchEventAsTheInformersClass() {
    try (KubernetesClient client = unreachableClient();
        Informers informers = new Informers(client, new ClusterCache(), new Counters())) {
      informers.start();
      KINDS.forEach(
          (kind, type) -> assertThat(watchedObject(client, kind)).as(kind).isInstanceOf(type));
    }
  }

  @Test
  void aKindNoInformerRegistered_isReadAsAGenericResource() {
    try (KubernetesClient client = unreachableClient()) {
      assertThat(watchedObject(client, "v1 Pod")).isInstanceOf(GenericKubernetesResource.class);
    }
  }

  private static Object watchedObject(KubernetesClient client, String kind) {
    String[] apiVersionAndKind = kind.split(" ");
    String json =
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\""
            + apiVersionAndKind[0]
            + "\",\"kind\":\""
            + apiVersionAndKind[1]
            + "\",\"metadata\":{\"name\":\"x\"}}}";
    return client.getKubernetesSerialization().unmarshal(json, WatchEvent.class).getObject();
  }

  /** The informers start, fail to connect and retry in the background until closed. */
  private static KubernetesClient unreachableClient() {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("https://127.0.0.1:1/")
            .withRequestRetryBackoffLimit(0)
            .build();
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .withKubernetesSerialization(Clients.serialization())
        .build();
  }
}
