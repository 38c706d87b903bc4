package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.loop.QueueLifecycle;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Queue states on the mock API server when Volcano is installed (its {@code bus.volcano.sh} API
 * group served): Volcano's queue controller keeps them, so Caldera reads them, honours them, and
 * writes none; an operator's command is refused with the {@code vcctl} to run instead. The
 * standalone case (Caldera keeps the states) runs as {@link RealClusterTest}'s {@code
 * queueCloseDrainOpen_areWrittenToTheQueuesStatus} on the mock server ({@link
 * RealClusterFlowsOnMockServerTest}).
 */
class QueueLifecycleBesideVolcanoTest {

  private final MockApi api = new MockApi();

  @AfterEach
  void stop() {
    api.close();
  }

  private void volcanoInstalled() {
    api.server
        .expect()
        .get()
        .withPath("/apis/bus.volcano.sh")
        .andReturn(
            200,
            Map.of(
                "kind", "APIGroup",
                "apiVersion", "v1",
                "name", "bus.volcano.sh",
                "versions", java.util.List.of(Map.of("groupVersion", "bus.volcano.sh/v1alpha1"))))
        .always();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(GenericKubernetesResource r) {
    Object s = r.getAdditionalProperties().get("status");
    return s instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @Test
  void besideVolcano_aClosingQueueIsHonoured_neverClosedByCaldera_andCommandsNameVcctl()
      throws Exception {
    volcanoInstalled();
    api.node("n1", "4", "8Gi");
    api.queueWithState("research", "Closing");
    api.queue("fresh", 1); // no state yet: Volcano's controller writes it, not Caldera
    api.podGroup("ns1", "late", "research", 1);
    api.pod("ns1", "late-0").requests("1", "1Gi").group("late").create();
    api.podGroup("ns1", "other", "fresh", 1);
    api.pod("ns1", "other-0").requests("1", "1Gi").group("other").create();
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner =
            new KubeRunner(
                cluster,
                new Scheduler(new ServiceLoaderPluginRegistry()),
                () -> conf,
                Duration.ofMillis(100),
                () -> true)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
      await("other-0 bound", () -> api.nodeOf("ns1", "other-0") != null);
      await(
          "fresh's allocated written",
          () -> status(api.getQueue("fresh")).get("allocated") instanceof Map<?, ?>);
      await(
          "research's allocated written",
          () -> status(api.getQueue("research")).get("allocated") instanceof Map<?, ?>);
      await("writes done", () -> cluster.counters().writesInFlight() == 0);

      assertThat(api.nodeOf("ns1", "late-0")).as("a Closing queue admits nothing").isNull();
      assertThat(status(api.getQueue("research")))
          .as("nothing of research runs, yet Volcano's controller closes it, not Caldera")
          .containsEntry("state", "Closing");
      assertThat(status(api.getQueue("fresh"))).doesNotContainKey("state");

      QueueLifecycle.Outcome close = cluster.queueCommand("fresh", QueueLifecycle.Command.CLOSE);
      QueueLifecycle.Outcome drain = cluster.queueCommand("fresh", QueueLifecycle.Command.DRAIN);
      QueueLifecycle.Outcome open = cluster.queueCommand("research", QueueLifecycle.Command.OPEN);

      assertThat(close.result()).isEqualTo(QueueLifecycle.Result.KEPT_BY_VOLCANO);
      assertThat(close.message())
          .contains("Volcano's queue controller keeps queue states on this cluster")
          .contains("`vcctl queue operate --name fresh --action close`");
      assertThat(drain.message()).contains("--action close`").contains("caldera.dev/drain");
      assertThat(open.message()).contains("`vcctl queue operate --name research --action open`");
      assertThat(status(api.getQueue("research"))).containsEntry("state", "Closing");
      assertThat(api.getQueue("fresh").getMetadata().getAnnotations()).isNullOrEmpty();
    }
  }

  @Test
  void standalone_aCommandOnAMissingQueue_isNotFound() throws Exception {
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();

      QueueLifecycle.Outcome outcome = cluster.queueCommand("nosuch", QueueLifecycle.Command.CLOSE);

      assertThat(outcome.result()).isEqualTo(QueueLifecycle.Result.NOT_FOUND);
      assertThat(outcome.message()).isEqualTo("queue nosuch does not exist");
    }
  }
}
