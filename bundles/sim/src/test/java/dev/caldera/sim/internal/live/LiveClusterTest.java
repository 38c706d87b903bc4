package dev.caldera.sim.internal.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import dev.caldera.sim.ClusterState;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.ScenarioException;
import dev.caldera.support.resource.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveClusterTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static final String GPU_CLUSTER =
      """
      apiVersion: v1
      kind: Node
      metadata:
        name: h100
        labels: {nvidia.com/gpu.product: H100}
      status: {allocatable: {cpu: '96', memory: 1024Gi, pods: '110', nvidia.com/gpu: '8'}}
      ---
      apiVersion: v1
      kind: Node
      metadata:
        name: a100
        labels: {nvidia.com/gpu.product: A100}
      status: {allocatable: {cpu: '96', memory: 1024Gi, pods: '110', nvidia.com/gpu: '4'}}
      ---
      apiVersion: scheduling.volcano.sh/v1beta1
      kind: Queue
      metadata: {name: q-training}
      spec: {weight: 1}
      ---
      apiVersion: scheduling.volcano.sh/v1beta1
      kind: Queue
      metadata: {name: q-inference}
      spec: {weight: 1}
      ---
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: low}
      value: 10
      ---
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: high}
      value: 1000
      """;

  @TempDir Path dir;

  private EmbeddedCluster gpuCluster() throws IOException, ScenarioException {
    Files.writeString(dir.resolve("cluster.yaml"), GPU_CLUSTER);
    return ManifestDirectory.load(dir);
  }

  private static List<PodGroup> generated(EmbeddedCluster c) {
    return c.state().podGroups().stream()
        .filter(pg -> pg.metadata().namespace().equals(WorkloadGenerator.NAMESPACE))
        .toList();
  }

  private static List<Pod> podsOf(EmbeddedCluster c, PodGroup pg) {
    return c.state().pods().stream()
        .filter(
            p ->
                pg.metadata()
                    .name()
                    .equals(p.metadata().annotations().get("scheduling.k8s.io/group-name")))
        .toList();
  }

  private static SessionResult result(
      List<SessionResult.Bind> binds, List<SessionResult.Eviction> evictions) {
    return new SessionResult(
        "s", binds, evictions, List.of(), Map.of(), Map.of(), Map.of(), List.of(), null);
  }

  private static SessionResult bindAll(EmbeddedCluster c) {
    List<SessionResult.Bind> binds = new ArrayList<>();
    for (Pod p : c.state().pods()) {
      if (p.nodeName().isEmpty() && p.phase().equals("Pending")) {
        binds.add(new SessionResult.Bind(p.key(), "h100"));
      }
    }
    return result(binds, List.of());
  }

  @Test
  void manifestDirectory_readsDocumentsListsAndYamlListsInPathOrder() throws Exception {
    Files.writeString(
        dir.resolve("a.yaml"),
        """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {allocatable: {cpu: '4'}}
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: Queue
        metadata: {name: q1}
        """);
    Files.writeString(
        dir.resolve("b.yml"),
        """
        apiVersion: v1
        kind: List
        items:
        - apiVersion: scheduling.k8s.io/v1
          kind: PriorityClass
          metadata: {name: pc}
          value: 5
        """);
    Files.createDirectories(dir.resolve("more"));
    Files.writeString(
        dir.resolve("more/c.yaml"),
        """
        - apiVersion: v1
          kind: Pod
          metadata: {name: p1, namespace: ns}
          spec:
            schedulerName: volcano
            priorityClassName: pc
            containers: [{name: c, resources: {requests: {cpu: '1'}}}]
        """);
    Files.writeString(dir.resolve("notes.txt"), "not a manifest");

    EmbeddedCluster cluster = ManifestDirectory.load(dir);
    ClusterState s = cluster.state();

    assertThat(s.nodes()).extracting(n -> n.name()).containsExactly("n1");
    assertThat(s.queues()).extracting(q -> q.name()).containsExactly("q1");
    assertThat(s.pods()).singleElement().satisfies(p -> assertThat(p.priority()).isEqualTo(5));
    assertThat(s.podGroups()).hasSize(1);
  }

  @Test
  void manifestDirectory_reportsAnEmptyDirectoryAndABadObject() throws Exception {
    assertThatThrownBy(() -> ManifestDirectory.load(dir))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("no manifests");

    Files.writeString(
        dir.resolve("bad.yaml"), "apiVersion: v2\nkind: Node\nmetadata: {name: n1}\n");
    assertThatThrownBy(() -> ManifestDirectory.load(dir))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("bad.yaml: objects[0] (Node)")
        .hasMessageContaining("apiVersion");
  }

  @Test
  void workload_submitsTrainingGangsAndInferenceServicesFittedToTheCluster() throws Exception {
    EmbeddedCluster cluster = gpuCluster();
    WorkloadGenerator g = new WorkloadGenerator(cluster.state(), 7, T0);

    g.tick(cluster, T0);

    List<PodGroup> groups = generated(cluster);
    assertThat(groups).extracting(PodGroup::queue).containsExactly("q-training", "q-inference");
    PodGroup training = groups.get(0);
    List<Pod> trainingPods = podsOf(cluster, training);
    assertThat(trainingPods).hasSize(training.minMember()).hasSizeBetween(2, 4);
    assertThat(training.priorityClassName()).isEqualTo("low");
    assertThat(training.metadata().annotations())
        .containsEntry("volcano.sh/service.type", "training")
        .containsKey("volcano.sh/card.request");
    Pod pod = trainingPods.get(0);
    assertThat(pod.priority()).isEqualTo(10);
    assertThat(pod.metadata().annotations().get("volcano.sh/card.name")).isIn("H100", "A100");
    assertThat(Resource.requestOf(pod).toString()).contains("nvidia.com/gpu");
    PodGroup inference = groups.get(1);
    assertThat(inference.priorityClassName()).isEqualTo("high");
    assertThat(inference.metadata().ownerReferences().get(0).kind()).isEqualTo("ReplicaSet");
    assertThat(g.counts().jobsSubmitted()).isEqualTo(2);
  }

  @Test
  void workload_endsPodsAfterTheirRunTimeAndDeletesFinishedJobs() throws Exception {
    EmbeddedCluster cluster = gpuCluster();
    WorkloadGenerator g = new WorkloadGenerator(cluster.state(), 7, T0);
    g.tick(cluster, T0);
    List<String> first = generated(cluster).stream().map(PodGroup::key).toList();
    SessionResult binds = bindAll(cluster);
    cluster.apply(binds);
    g.applied(binds, T0);

    g.tick(cluster, T0.plusSeconds(1));
    assertThat(cluster.state().pods()).filteredOn(p -> p.phase().equals("Succeeded")).isEmpty();

    g.tick(cluster, T0.plus(Duration.ofSeconds(61)));

    assertThat(generated(cluster)).extracting(PodGroup::key).doesNotContainAnyElementsOf(first);
    assertThat(g.counts().podsCompleted()).isEqualTo(binds.binds().size());
  }

  @Test
  void workload_restartsAJobThatLostAPodToAnEviction() throws Exception {
    EmbeddedCluster cluster = gpuCluster();
    WorkloadGenerator g = new WorkloadGenerator(cluster.state(), 7, T0);
    g.tick(cluster, T0);
    SessionResult binds = bindAll(cluster);
    cluster.apply(binds);
    g.applied(binds, T0);
    PodGroup training = generated(cluster).get(0);
    String victim = podsOf(cluster, training).get(0).key();
    SessionResult eviction =
        result(List.of(), List.of(new SessionResult.Eviction(victim, "reclaim", "")));
    cluster.apply(eviction);
    g.applied(eviction, T0.plusSeconds(1));

    g.tick(cluster, T0.plusSeconds(2));

    List<Pod> restarted = podsOf(cluster, training);
    assertThat(restarted).hasSize(training.minMember());
    assertThat(restarted).allSatisfy(p -> assertThat(p.nodeName()).isEmpty());
    assertThat(g.counts().jobsRestarted()).isEqualTo(1);
  }

  @Test
  void workload_isTheSameForTheSameSeedAndTimes() throws Exception {
    List<List<String>> runs = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      EmbeddedCluster cluster = gpuCluster();
      WorkloadGenerator g = new WorkloadGenerator(cluster.state(), 42, T0);
      for (int s = 0; s < 30; s++) {
        g.tick(cluster, T0.plusSeconds(s));
      }
      runs.add(
          cluster.state().pods().stream().map(p -> p.key() + "/" + Resource.requestOf(p)).toList());
    }
    assertThat(runs.get(0)).isNotEmpty().isEqualTo(runs.get(1));
  }

  @Test
  void workload_withoutGpusAsksForCpusOnly() throws Exception {
    Files.writeString(
        dir.resolve("cpu.yaml"),
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '32'}}\n");
    EmbeddedCluster cluster = ManifestDirectory.load(dir);

    new WorkloadGenerator(cluster.state(), 1, T0).tick(cluster, T0);

    assertThat(cluster.state().pods())
        .isNotEmpty()
        .allSatisfy(p -> assertThat(Resource.requestOf(p).toString()).doesNotContain("gpu"));
    assertThat(generated(cluster)).allSatisfy(pg -> assertThat(pg.queue()).isEqualTo("default"));
  }

  @Test
  void liveCluster_movesTheWorkloadOnBeforeEachSnapshotAndFeedsItTheResults() throws Exception {
    AtomicReference<Instant> now = new AtomicReference<>(T0);
    EmbeddedCluster cluster = gpuCluster();
    WorkloadGenerator g = new WorkloadGenerator(cluster.state(), 7, T0);
    LiveCluster live = new LiveCluster(cluster, g, now::get);

    ClusterSnapshot first = live.snapshot();
    live.apply(bindAll(cluster));
    now.set(T0.plus(Duration.ofMinutes(2)));
    live.snapshot();

    assertThat(first.now()).isEqualTo(T0);
    assertThat(first.pods()).isNotEmpty();
    assertThat(g.counts().podsCompleted()).isEqualTo(first.pods().size());
  }

  @Test
  void embeddedCluster_setPodPhaseAndDeleteChangeOnlyWhatTheyName() throws Exception {
    EmbeddedCluster cluster = gpuCluster();
    new WorkloadGenerator(cluster.state(), 7, T0).tick(cluster, T0);
    PodGroup training = generated(cluster).get(0);
    PodGroup inference = generated(cluster).get(1);
    String pod = podsOf(cluster, inference).get(0).key();

    assertThat(cluster.setPodPhase(pod, "Succeeded")).isTrue();
    assertThat(cluster.setPodPhase("ns/none", "Succeeded")).isFalse();
    cluster.delete(training.key());

    assertThat(generated(cluster)).extracting(PodGroup::key).containsExactly(inference.key());
    assertThat(cluster.state().pods()).extracting(Pod::key).containsExactly(pod);
    assertThat(cluster.state().pods().get(0).phase()).isEqualTo("Succeeded");
  }
}
