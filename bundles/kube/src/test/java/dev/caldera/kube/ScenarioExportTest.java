package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/snapshot}'s content: the mock API server's cluster written as a scenario, which
 * the simulator loads and schedules exactly as the live session does.
 */
class ScenarioExportTest {

  private static final String CONF =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}, {name: binpack}]
      """;

  private final MockApi api = new MockApi();

  @TempDir Path dir;

  @AfterEach
  void stop() {
    api.close();
  }

  private void cluster() {
    api.node("n1", "8", "16Gi");
    api.node("n2", "4", "8Gi");
    api.queue("default", 1);
    api.queue("q1", 2);
    api.priorityClass("high", 1000);
    api.pod("ns1", "running").requests("3", "2Gi").runningOn("n1").create();
    api.podGroup("ns1", "train", "q1", 3);
    for (int i = 0; i < 3; i++) {
      api.pod("ns1", "train-" + i).requests("2", "2Gi").group("train").create();
    }
    api.podGroup("ns1", "big", "q1", 2);
    for (int i = 0; i < 2; i++) {
      api.pod("ns1", "big-" + i).requests("4", "4Gi").group("big").create();
    }
    api.pod("ns2", "urgent")
        .requests("1", "1Gi")
        .priorityClass("high")
        .annotation("example.com/owner", "team-a")
        .create();
  }

  @Test
  void theSnapshotReplays_withTheLiveSessionsDecisions() throws Exception {
    cluster();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      MockApi.await("every pod in the cache", () -> cluster.snapshot().pods().size() == 7);

      String yaml =
          cluster.exportScenario(new ClusterExport.Request("snap", CONF, Map.of(), false));
      SessionResult live =
          new Scheduler(new ServiceLoaderPluginRegistry())
              .runSession(cluster.snapshot(), SchedulerConf.parse(CONF, "conf"));

      Path file = Files.writeString(dir.resolve("snap.yaml"), yaml);
      Scenario scenario = ScenarioLoader.load(file);
      ScenarioReport replay = new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(scenario);

      assertThat(live.binds()).as("the live session binds something").isNotEmpty();
      assertThat(replay.sessions().get(0).binds()).isEqualTo(live.binds());
      assertThat(scenario.objects().pods()).hasSize(7);
      assertThat(yaml)
          .as("what only the server needs is left out")
          .doesNotContain("managedFields")
          .doesNotContain("resourceVersion");
    }
  }

  @Test
  void aJsonSnapshot_loadsAsTheSameScenarioAsTheYamlOne() throws Exception {
    cluster();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      MockApi.await("every pod in the cache", () -> cluster.snapshot().pods().size() == 7);

      String yaml =
          cluster.exportScenario(new ClusterExport.Request("snap", CONF, Map.of(), false));
      String json =
          cluster.exportScenario(
              new ClusterExport.Request("snap", CONF, Map.of(), false, false, true));

      assertThat(json).startsWith("{\"name\":\"snap\"");
      Scenario fromYaml = ScenarioLoader.load(Files.writeString(dir.resolve("s.yaml"), yaml));
      Scenario fromJson = ScenarioLoader.load(Files.writeString(dir.resolve("s.json"), json));
      assertThat(fromJson.objects().pods()).isEqualTo(fromYaml.objects().pods());
      assertThat(fromJson.objects().nodes()).isEqualTo(fromYaml.objects().nodes());
      assertThat(fromJson.objects().podGroups()).isEqualTo(fromYaml.objects().podGroups());
      assertThat(fromJson.conf()).isEqualTo(fromYaml.conf());
    }
  }

  @Test
  void dropUnread_leavesOutAnnotationsNoPluginReads_andKeepsTheSchedulingOnes() throws Exception {
    cluster();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      MockApi.await("every pod in the cache", () -> cluster.snapshot().pods().size() == 7);

      String all = cluster.exportScenario(new ClusterExport.Request("s", CONF, Map.of(), false));
      String dropped = cluster.exportScenario(new ClusterExport.Request("s", CONF, Map.of(), true));

      assertThat(all).contains("example.com/owner");
      assertThat(dropped)
          .doesNotContain("example.com/owner")
          .contains("scheduling.k8s.io/group-name");
      Path file = Files.writeString(dir.resolve("dropped.yaml"), dropped);
      assertThat(ScenarioLoader.load(file).objects().pods()).hasSize(7);
    }
  }

  @Test
  void dropUnread_keepsTheDrainMarkOfAQueue() throws Exception {
    api.kubectl
        .genericKubernetesResources(MockApi.QUEUES)
        .resource(
            new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName("research")
                .withAnnotations(Map.of("caldera.dev/drain", "true", "example.com/team", "ml"))
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("weight", 1))
                .addToAdditionalProperties("status", Map.of("state", "Closing"))
                .build())
        .create();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();

      String dropped = cluster.exportScenario(new ClusterExport.Request("q", CONF, Map.of(), true));

      assertThat(dropped).contains("caldera.dev/drain").doesNotContain("example.com/team");
      dev.caldera.api.model.Queue research =
          ScenarioLoader.load(Files.writeString(dir.resolve("q.yaml"), dropped))
              .objects()
              .queues()
              .stream()
              .filter(q -> q.name().equals("research"))
              .findFirst()
              .orElseThrow();
      assertThat(research.state()).isEqualTo("Closing");
      assertThat(research.metadata().annotations()).containsEntry("caldera.dev/drain", "true");
    }
  }

  @Test
  void nodeMetrics_goIntoTheSnapshot_asTheUsagePluginReadsThem() throws Exception {
    api.node("n1", "4", "8Gi");
    api.nodeMetrics("n1", "1", "2Gi", "2026-11-21T10:00:00Z");
    try (KubeCluster cluster = api.cluster("a", b -> b.metricsInterval(Duration.ofMillis(50)))) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      MockApi.await(
          "node metrics", () -> cluster.snapshot().info().nodeMetrics().containsKey("n1"));

      String yaml = cluster.exportScenario(new ClusterExport.Request("m", CONF, Map.of(), false));

      Scenario scenario = ScenarioLoader.load(Files.writeString(dir.resolve("m.yaml"), yaml));
      assertThat(scenario.nodeMetrics())
          .containsEntry(
              "n1",
              new dev.caldera.api.model.NodeMetrics(
                  25.0, 25.0, java.time.Instant.parse("2026-11-21T10:00:00Z")));
    }
  }

  @Test
  void anonymized_noRealNameIsLeft_andTheReplayDecidesTheSameUpToTheRenaming() throws Exception {
    cluster();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      MockApi.await("every pod in the cache", () -> cluster.snapshot().pods().size() == 7);

      String plain = cluster.exportScenario(new ClusterExport.Request("p", CONF, Map.of(), false));
      String anonymous =
          cluster.exportScenario(new ClusterExport.Request("a", CONF, Map.of(), false, true));

      for (String real :
          List.of("ns1", "ns2", "train-", "big-", "urgent", "running", "\"q1\"", "n1", "n2")) {
        assertThat(anonymous.substring(anonymous.indexOf("objects:"))).doesNotContain(real);
      }
      var before =
          new ScenarioRunner(new ServiceLoaderPluginRegistry())
              .run(ScenarioLoader.load(Files.writeString(dir.resolve("p.yaml"), plain)));
      var after =
          new ScenarioRunner(new ServiceLoaderPluginRegistry())
              .run(ScenarioLoader.load(Files.writeString(dir.resolve("a.yaml"), anonymous)));
      var bindsBefore = before.sessions().get(0).binds();
      var bindsAfter = after.sessions().get(0).binds();
      assertThat(bindsBefore).isNotEmpty();
      assertThat(bindsAfter).hasSameSizeAs(bindsBefore);
      // The same pods go to the same nodes: the renaming is a bijection, seen through the binds.
      Map<String, String> podNames = new java.util.HashMap<>();
      Map<String, String> nodeNames = new java.util.HashMap<>();
      for (int i = 0; i < bindsBefore.size(); i++) {
        String pod = podNames.putIfAbsent(bindsBefore.get(i).pod(), bindsAfter.get(i).pod());
        String node = nodeNames.putIfAbsent(bindsBefore.get(i).node(), bindsAfter.get(i).node());
        assertThat(pod == null || pod.equals(bindsAfter.get(i).pod())).isTrue();
        assertThat(node == null || node.equals(bindsAfter.get(i).node())).isTrue();
      }
      assertThat(new java.util.HashSet<>(nodeNames.values())).hasSameSizeAs(nodeNames.keySet());
    }
  }

  @Test
  void twoExportsOfOneState_areTheSameText() throws Exception {
    cluster();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      MockApi.await("every pod in the cache", () -> cluster.snapshot().pods().size() == 7);
      ClusterExport.Request request = new ClusterExport.Request("s", CONF, Map.of(), false);
      String first = cluster.exportScenario(request);
      String second = cluster.exportScenario(request);
      // The description and now name the second of the export; compare the objects.
      assertThat(second.substring(second.indexOf("objects:")))
          .isEqualTo(first.substring(first.indexOf("objects:")));
    }
  }
}
