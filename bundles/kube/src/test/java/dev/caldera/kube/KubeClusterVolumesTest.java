package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Volume binding against the mock API server: the writer settles a pod's claims before it binds the
 * pod. The test stands in for the cluster's volume controllers: it provisions a claim once it has
 * the selected-node annotation and completes a static binding once the volume names the claim.
 */
class KubeClusterVolumesTest {

  private final MockApi api = new MockApi();
  private final Scheduler scheduler = new Scheduler(new ServiceLoaderPluginRegistry());

  /** Claim → how many pod bindings the server had answered when the claim's node was selected. */
  private final Map<String, Integer> bindingsWhenSelected = new ConcurrentHashMap<>();

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void waitForFirstConsumerClaims_areSettledBeforeThePodIsBound() throws Exception {
    api.node("n1", "4", "8Gi");
    api.node("n2", "4", "8Gi");
    api.queue("default", 1);
    storageClass("ssd", "csi.example.com");
    storageClass("local", "kubernetes.io/no-provisioner");
    claim("ns1", "scratch", "ssd");
    claim("ns1", "checkpoints", "local");
    api.kubectl
        .persistentVolumes()
        .resource(
            new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName("local-n2")
                .endMetadata()
                .withNewSpec()
                .withCapacity(Map.of("storage", new Quantity("10Gi")))
                .withAccessModes("ReadWriteOnce")
                .withStorageClassName("local")
                .withNewNodeAffinity()
                .withNewRequired()
                .addNewNodeSelectorTerm()
                .withMatchFields(
                    new NodeSelectorRequirementBuilder()
                        .withKey("metadata.name")
                        .withOperator("In")
                        .withValues("n2")
                        .build())
                .endNodeSelectorTerm()
                .endRequired()
                .endNodeAffinity()
                .endSpec()
                .withNewStatus()
                .withPhase("Available")
                .endStatus()
                .build())
        .create();
    pod("ns1", "trainer", "scratch");
    pod("ns1", "writer", "checkpoints");

    try (Watch claims = api.kubectl.persistentVolumeClaims().inAnyNamespace().watch(provisioner());
        Watch volumes = api.kubectl.persistentVolumes().watch(volumeController());
        KubeCluster cluster = api.cluster("a");
        KubeRunner runner =
            new KubeRunner(cluster, scheduler, () -> conf(), Duration.ofMillis(100), () -> true)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      assertThat(List.of(claims, volumes)).as("the stand-in controllers watch").hasSize(2);
      runner.start();

      await(
          "both pods bound",
          () -> api.nodeOf("ns1", "trainer") != null && api.nodeOf("ns1", "writer") != null);
    }
    String node = api.nodeOf("ns1", "trainer");
    assertThat(
            api.kubectl
                .persistentVolumeClaims()
                .inNamespace("ns1")
                .withName("scratch")
                .get()
                .getMetadata()
                .getAnnotations())
        .containsEntry(PersistentVolumeClaim.SELECTED_NODE_ANNOTATION, node);
    assertThat(bindingsWhenSelected).containsEntry("ns1/scratch", 0);
    assertThat(api.nodeOf("ns1", "writer")).isEqualTo("n2");
    PersistentVolume local = api.kubectl.persistentVolumes().withName("local-n2").get();
    assertThat(local.getSpec().getClaimRef().getName()).isEqualTo("checkpoints");
    assertThat(api.bindings("ns1", "trainer")).isEqualTo(1);
  }

  @Test
  void claimsNotBoundInTime_failTheBind_andThePodGoesBackToPending() throws Exception {
    api.node("n1", "4", "8Gi");
    api.queue("default", 1);
    storageClass("ssd", "csi.example.com");
    claim("ns1", "scratch", "ssd");
    pod("ns1", "trainer", "scratch");

    // No provisioner runs: the claim gets its selected node and is never bound.
    try (KubeCluster cluster = api.cluster("a")) {
      cluster.setVolumeBindTimeout(Duration.ofMillis(500));
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await("the pod", () -> !cluster.snapshot().pods().isEmpty());

      var result = scheduler.runSession(cluster.snapshot(), conf());
      assertThat(result.binds()).singleElement().satisfies(b -> assertThat(b.volumes()).hasSize(1));
      cluster.apply(result);

      await("the bind failed", () -> cluster.counters().bindsFailed() == 1);
      assertThat(api.nodeOf("ns1", "trainer")).as("never bound").isNull();
      assertThat(api.bindings("ns1", "trainer")).isZero();
      await(
          "the pod pending again in the cache",
          () ->
              cluster.snapshot().pods().stream()
                  .filter(p -> p.key().equals("ns1/trainer"))
                  .allMatch(p -> p.nodeName().isEmpty()));
      await(
          "the SchedulerError condition naming the claims",
          () -> {
            var pod = api.kubectl.pods().inNamespace("ns1").withName("trainer").get();
            return pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                    .anyMatch(
                        c ->
                            "SchedulerError".equals(c.getReason())
                                && c.getMessage().contains("ns1/scratch"));
          });
    }
  }

  @Test
  void aClaimOfNegativeSize_isNotUsed_andTheEventIsOnTheClaim() throws Exception {
    api.node("n1", "4", "8Gi");
    api.queue("default", 1);
    storageClass("ssd", "csi.example.com");
    claim("ns1", "scratch", "ssd");
    claim("ns1", "broken", "ssd", "-1Gi");
    pod("ns1", "trainer", "scratch");
    pod("ns1", "stuck", "broken");

    try (Watch claims = api.kubectl.persistentVolumeClaims().inAnyNamespace().watch(provisioner());
        KubeCluster cluster = api.cluster("a");
        KubeRunner runner =
            new KubeRunner(cluster, scheduler, () -> conf(), Duration.ofMillis(100), () -> true)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      assertThat(claims).as("the stand-in provisioner watches").isNotNull();
      runner.start();

      await("the other pod bound", () -> api.nodeOf("ns1", "trainer") != null);
      await(
          "an event on the claim",
          () ->
              api.kubectl.events().v1().events().inAnyNamespace().list().getItems().stream()
                  .anyMatch(
                      e ->
                          "PersistentVolumeClaim".equals(e.getRegarding().getKind())
                              && "broken".equals(e.getRegarding().getName())
                              && "ResourceOutOfRange".equals(e.getReason())
                              && e.getNote()
                                  .contains("spec.resources.requests.storage: -1Gi is negative")));
      assertThat(api.nodeOf("ns1", "stuck")).isNull();
    }
  }

  private static SchedulerConf conf() {
    try {
      return SchedulerConf.parse(
          """
          actions: "enqueue, allocate"
          tiers:
          - plugins: [{name: priority}, {name: gang}]
          - plugins: [{name: predicates}, {name: nodeorder}]
          """,
          "test conf");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Provisions a claim once the scheduler selected its node, as an external provisioner does. */
  private Watcher<io.fabric8.kubernetes.api.model.PersistentVolumeClaim> provisioner() {
    return new Watcher<>() {
      @Override
      public void eventReceived(
          Action action, io.fabric8.kubernetes.api.model.PersistentVolumeClaim c) {
        Map<String, String> annotations = c.getMetadata().getAnnotations();
        String node =
            annotations == null
                ? null
                : annotations.get(PersistentVolumeClaim.SELECTED_NODE_ANNOTATION);
        if (action == Action.DELETED || node == null || c.getSpec().getVolumeName() != null) {
          return;
        }
        String key = c.getMetadata().getNamespace() + "/" + c.getMetadata().getName();
        bindingsWhenSelected.putIfAbsent(
            key, api.bindings(c.getMetadata().getNamespace(), "trainer"));
        String pv = "pvc-" + c.getMetadata().getName();
        CompletableFuture.runAsync(
            () -> bindClaim(c.getMetadata().getNamespace(), c.getMetadata().getName(), pv));
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  /** Completes a static binding once a volume names its claim, as the PV controller does. */
  private Watcher<PersistentVolume> volumeController() {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, PersistentVolume v) {
        var ref = v.getSpec() == null ? null : v.getSpec().getClaimRef();
        if (action == Action.DELETED || ref == null) {
          return;
        }
        CompletableFuture.runAsync(
            () -> bindClaim(ref.getNamespace(), ref.getName(), v.getMetadata().getName()));
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  private void bindClaim(String namespace, String name, String volume) {
    api.kubectl
        .persistentVolumeClaims()
        .inNamespace(namespace)
        .withName(name)
        .edit(
            c -> {
              if (c.getSpec().getVolumeName() == null) {
                c.getSpec().setVolumeName(volume);
                c.setStatus(
                    new io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder()
                        .withPhase("Bound")
                        .build());
              }
              return c;
            });
  }

  private void storageClass(String name, String provisioner) {
    api.kubectl
        .storage()
        .v1()
        .storageClasses()
        .resource(
            new StorageClassBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withProvisioner(provisioner)
                .withVolumeBindingMode("WaitForFirstConsumer")
                .build())
        .create();
  }

  private void claim(String namespace, String name, String storageClass) {
    claim(namespace, name, storageClass, "1Gi");
  }

  private void claim(String namespace, String name, String storageClass, String size) {
    api.kubectl
        .persistentVolumeClaims()
        .inNamespace(namespace)
        .resource(
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withStorageClassName(storageClass)
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .withRequests(Map.of("storage", new Quantity(size)))
                .endResources()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build())
        .create();
  }

  private void pod(String namespace, String name, String claim) {
    api.emulateBinding(namespace, name);
    api.kubectl
        .pods()
        .inNamespace(namespace)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("volcano")
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("1Gi")))
                .endResources()
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewPersistentVolumeClaim()
                .withClaimName(claim)
                .endPersistentVolumeClaim()
                .endVolume()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build())
        .create();
  }
}
