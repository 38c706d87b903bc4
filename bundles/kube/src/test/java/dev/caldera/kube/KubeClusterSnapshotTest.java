package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the informers deliver, as a session sees it (fabric8 mock server, CRUD mode). */
class KubeClusterSnapshotTest {

  private final MockApi api = new MockApi();

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void snapshot_holdsEveryKindTheInformersSee() throws Exception {
    api.node("n1", "4", "8Gi");
    api.queue("q1", 3);
    api.podGroup("ns1", "pg1", "q1", 2);
    api.pod("ns1", "p1").requests("1", "1Gi").group("pg1").create();
    api.pod("ns1", "other-pending").requests("1", "1Gi").scheduler("default-scheduler").create();
    api.pod("ns1", "other-running")
        .requests("500m", "1Gi")
        .scheduler("default-scheduler")
        .runningOn("n1")
        .create();
    api.kubectl
        .scheduling()
        .v1()
        .priorityClasses()
        .resource(
            new PriorityClassBuilder()
                .withNewMetadata()
                .withName("high")
                .endMetadata()
                .withValue(1000)
                .build())
        .create();
    api.kubectl
        .policy()
        .v1()
        .podDisruptionBudget()
        .inNamespace("ns1")
        .resource(
            new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                .withName("budget")
                .withNamespace("ns1")
                .endMetadata()
                .withNewSpec()
                .withSelector(new LabelSelectorBuilder().addToMatchLabels("app", "x").build())
                .endSpec()
                .withNewStatus()
                .withDisruptionsAllowed(1)
                .withCurrentHealthy(2)
                .withDesiredHealthy(1)
                .withExpectedPods(2)
                .endStatus()
                .build())
        .create();
    api.kubectl
        .resourceQuotas()
        .inNamespace("ns1")
        .resource(
            new ResourceQuotaBuilder()
                .withNewMetadata()
                .withName("quota")
                .withNamespace("ns1")
                .endMetadata()
                .withNewStatus()
                .addToHard("cpu", new io.fabric8.kubernetes.api.model.Quantity("10"))
                .addToUsed("cpu", new io.fabric8.kubernetes.api.model.Quantity("2"))
                .endStatus()
                .build())
        .create();
    api.kubectl
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName("ns1")
                .addToLabels("team", "a")
                .endMetadata()
                .build())
        .create();

    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await(
          "every object in the snapshot",
          () -> {
            ClusterSnapshot s = cluster.snapshot();
            return s.pods().size() == 2
                && s.info().namespaces().size() == 1
                && s.info().resourceQuotas().size() == 1
                && s.info().podDisruptionBudgets().size() == 1
                && s.info().priorityClasses().size() == 1;
          });
      ClusterSnapshot s = cluster.snapshot();

      assertThat(s.nodes())
          .singleElement()
          .satisfies(
              n -> {
                assertThat(n.name()).isEqualTo("n1");
                assertThat(n.allocatable().get("cpu")).isEqualTo(Quantity.parse("4"));
                assertThat(n.allocatable().get("memory")).isEqualTo(Quantity.parse("8Gi"));
              });
      // The pending pod of another scheduler is not ours; the running one occupies n1.
      assertThat(s.pods())
          .extracting(Pod::key)
          .containsExactlyInAnyOrder("ns1/p1", "ns1/other-running");
      Pod p1 = s.pods().stream().filter(p -> p.name().equals("p1")).findFirst().orElseThrow();
      assertThat(p1.containers().get(0).requests()).containsEntry("cpu", Quantity.parse("1"));
      assertThat(p1.metadata().annotations()).containsEntry("scheduling.k8s.io/group-name", "pg1");
      assertThat(p1.metadata().uid()).isNotEmpty();
      assertThat(s.podGroups())
          .singleElement()
          .satisfies(
              pg -> {
                assertThat(pg.key()).isEqualTo("ns1/pg1");
                assertThat(pg.queue()).isEqualTo("q1");
                assertThat(pg.minMember()).isEqualTo(2);
              });
      assertThat(s.queues())
          .singleElement()
          .satisfies(
              q -> {
                assertThat(q.name()).isEqualTo("q1");
                assertThat(q.weight()).isEqualTo(3);
                assertThat(q.reclaimable()).isTrue();
              });
      assertThat(s.info().priorityClasses())
          .singleElement()
          .satisfies(pc -> assertThat(pc.value()).isEqualTo(1000));
      assertThat(s.info().podDisruptionBudgets())
          .singleElement()
          .satisfies(
              b -> {
                assertThat(b.disruptionsAllowed()).isEqualTo(1);
                assertThat(b.selector().matchLabels()).containsEntry("app", "x");
              });
      assertThat(s.info().resourceQuotas().get(0).used()).containsEntry("cpu", Quantity.parse("2"));
      assertThat(s.info().namespaces().get(0).metadata().labels()).containsEntry("team", "a");
    }
  }

  @Test
  void snapshot_givesAPodWithoutGroupAnImplicitOne() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "lonely")
        .requests("1", "1Gi")
        .annotation("scheduling.volcano.sh/queue-name", "q9")
        .create();

    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await("the pod", () -> cluster.snapshot().pods().size() == 1);
      ClusterSnapshot s = cluster.snapshot();
      Pod pod = s.pods().get(0);
      String group = "podgroup-" + pod.metadata().uid();
      assertThat(pod.metadata().annotations()).containsEntry("scheduling.k8s.io/group-name", group);
      PodGroup pg = s.podGroups().get(0);
      assertThat(pg.key()).isEqualTo("ns1/" + group);
      assertThat(pg.queue()).isEqualTo("q9");
      assertThat(pg.minMember()).isEqualTo(1);
      assertThat(pg.minResources()).containsEntry("cpu", Quantity.parse("1"));
      // No queue exists, so the session gets the open default queue Volcano would create.
      assertThat(s.queues()).extracting(Queue::name).containsExactly("default");
    }
  }

  @Test
  void snapshot_fillsPriorityFromThePriorityClass() throws Exception {
    api.kubectl
        .scheduling()
        .v1()
        .priorityClasses()
        .resource(
            new PriorityClassBuilder()
                .withNewMetadata()
                .withName("everyone")
                .endMetadata()
                .withValue(42)
                .withGlobalDefault(true)
                .build())
        .create();
    api.pod("ns1", "p").requests("1", "1Gi").create();
    api.pod("ns1", "explicit").requests("1", "1Gi").priority(7).create();

    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await(
          "pods and the class",
          () ->
              cluster.snapshot().pods().size() == 2
                  && cluster.snapshot().info().priorityClasses().size() == 1);
      Map<String, Integer> priorities = new java.util.HashMap<>();
      cluster.snapshot().pods().forEach(p -> priorities.put(p.name(), p.priority()));
      assertThat(priorities).containsEntry("p", 42).containsEntry("explicit", 7);
    }
  }

  @Test
  void schedulerNames_chooseWhichPendingPodsAreScheduled() throws Exception {
    api.pod("ns1", "mine").requests("1", "1Gi").scheduler("caldera").create();
    api.pod("ns1", "volcanos").requests("1", "1Gi").create();

    try (KubeCluster cluster =
        api.cluster("a", b -> b.schedulerName("caldera").schedulerName("batch"))) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await("the pod of caldera", () -> cluster.snapshot().pods().size() == 1);
      assertThat(cluster.snapshot().pods()).extracting(Pod::name).containsExactly("mine");
    }
  }

  @Test
  void snapshot_waitsUntilEveryInformerListed() throws Exception {
    // Volcano's CRDs not installed yet: listing queues fails.
    api.dispatcher.failAll("/apis/scheduling.volcano.sh/v1beta1/queues");
    try (KubeCluster cluster = api.cluster("a")) {
      // Every other informer lists (how soon depends on the machine's load); queues never does.
      await("all but queues listed", () -> cluster.unsynced().equals(List.of("queues")));
      assertThat(cluster.awaitSync(Duration.ofMillis(500))).isFalse();
      assertThat(cluster.isSynced()).isFalse();
      assertThat(cluster.unsynced()).containsExactly("queues");
      assertThatThrownBy(cluster::snapshot)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("queues");
      assertThat(cluster.counters().watchErrors()).isPositive();

      api.dispatcher.clearFaults();
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      assertThat(cluster.snapshot().queues()).extracting(Queue::name).containsExactly("default");
    }
  }

  @Test
  void snapshot_carriesNodeMetricsWhenTheMetricsApiIsServed() throws Exception {
    api.node("n1", "4", "8Gi");
    api.nodeMetrics("n1", "1", "2Gi", "2026-11-21T10:00:00Z");

    try (KubeCluster cluster = api.cluster("a", b -> b.metricsInterval(Duration.ofMillis(50)))) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await("node metrics", () -> cluster.snapshot().info().nodeMetrics().containsKey("n1"));
      var m = cluster.snapshot().info().nodeMetrics().get("n1");
      assertThat(m.cpuPercent()).isEqualTo(25.0);
      assertThat(m.memoryPercent()).isEqualTo(25.0);
      assertThat(m.updated()).isEqualTo(java.time.Instant.parse("2026-11-21T10:00:00Z"));
      assertThat(cluster.metricsServed()).isTrue();
    }
  }

  @Test
  void metrics_areEmptyWhenTheMetricsApiIsNotServed() throws Exception {
    api.node("n1", "4", "8Gi");
    api.dispatcher.fail("GET", "/apis/metrics.k8s.io/v1beta1/nodes", 404, -1);
    try (KubeCluster cluster = api.cluster("a", b -> b.metricsInterval(Duration.ofMillis(50)))) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await("the metrics API found missing", () -> !cluster.metricsServed());
      assertThat(cluster.snapshot().info().nodeMetrics()).isEmpty();
    }
  }
}
