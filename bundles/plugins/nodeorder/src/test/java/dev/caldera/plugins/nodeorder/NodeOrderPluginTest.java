package dev.caldera.plugins.nodeorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.BatchNodeOrderFn;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeOrderPluginTest {

  private static final String HOST = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";

  private static final String[] ALL_KEYS = {
    "leastrequested.weight",
    "mostrequested.weight",
    "balancedresource.weight",
    "nodeaffinity.weight",
    "podaffinity.weight",
    "tainttoleration.weight",
    "imagelocality.weight",
    "podtopologyspread.weight"
  };

  private final FakeSession session = new FakeSession();

  private RecordingExtensions open(Map<String, Object> arguments) {
    NodeOrderPlugin plugin =
        (NodeOrderPlugin)
            new NodeOrderPluginFactory().create(new PluginArguments("nodeorder", arguments, false));
    return RecordingExtensions.open(plugin, session);
  }

  /** Only {@code key} at {@code weight}, every other weight 0, as the Volcano tests do. */
  private static Map<String, Object> only(String key, int weight) {
    Map<String, Object> args = new HashMap<>();
    for (String k : ALL_KEYS) {
      args.put(k, 0);
    }
    args.put(key, weight);
    return args;
  }

  private static double[] batch(RecordingExtensions ext, FakeTask task, NodeInfo... nodes) {
    double[] scores = new double[nodes.length];
    assertThat(
            ext.get(ExtensionPoint.BATCH_NODE_ORDER)
                .score(task, List.of(nodes), scores)
                .isSuccess())
        .isTrue();
    return scores;
  }

  private FakeNode node(String name) {
    return session.addNode(name).allocatable("cpu", "4", "memory", "16Gi", "pods", "110");
  }

  // ------------------------------------------------------------ acceptance scenarios by hand

  @Test
  void batch_seedSpreadsScenario_prefersTheEmptyNode() {
    // seeds/nodeorder-spreads.yaml: least 1, most 0, balanced 0, the rest at their defaults.
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    new FakeTask("ns/busy-0")
        .requests("cpu", "3", "memory", "12Gi")
        .status(TaskStatus.RUNNING)
        .on(n1);
    FakeTask task = new FakeTask("ns/new-0").requests("cpu", "1", "memory", "1Gi");
    RecordingExtensions ext =
        open(
            Map.of(
                "leastrequested.weight", 1,
                "mostrequested.weight", 0,
                "balancedresource.weight", 0));
    // Least: n1 9, n2 84 (see ResourceScoresTest); taint toleration adds 100 × 3 everywhere;
    // node affinity, pod affinity and spread have nothing to score.
    assertThat(batch(ext, task, n1, n2)).containsExactly(309, 384);
    // ImageLocality has no images to look at: no node order function.
    assertThat(ext.has(ExtensionPoint.NODE_ORDER)).isFalse();
  }

  @Test
  void batch_volcanoBalancedScenario() {
    FakeNode n1 = session.addNode("n1").allocatable("cpu", "2", "memory", "2Gi", "pods", "10");
    FakeNode n2 = session.addNode("n2").allocatable("cpu", "4", "memory", "2Gi", "pods", "10");
    FakeTask task = new FakeTask("c1/p1").requests("cpu", "1", "memory", "1Gi");
    assertThat(batch(open(only("balancedresource.weight", 10)), task, n1, n2))
        .containsExactly(1000, 870);
  }

  @Test
  void batch_volcanoMostAllocatedScenario() {
    FakeNode n1 = session.addNode("n1").allocatable("cpu", "2", "memory", "4Gi", "pods", "10");
    FakeNode n2 = session.addNode("n2").allocatable("cpu", "4", "memory", "8Gi", "pods", "10");
    FakeTask task = new FakeTask("c1/p1").requests("cpu", "1", "memory", "1G");
    assertThat(batch(open(only("mostrequested.weight", 1)), task, n1, n2)).containsExactly(36, 18);
  }

  @Test
  void batch_volcanoTaintScenario_prefersTheUntaintedNode() {
    FakeNode n1 = session.addNode("n1").allocatable("cpu", "2", "memory", "4Gi", "pods", "10");
    FakeNode n2 =
        session
            .addNode("n2")
            .allocatable("cpu", "2", "memory", "4Gi", "pods", "10")
            .taint("key1", "value1", "PreferNoSchedule");
    FakeTask task = new FakeTask("c1/p1").requests("cpu", "1", "memory", "1G");
    assertThat(batch(open(only("tainttoleration.weight", 10)), task, n1, n2))
        .containsExactly(1000, 0);
  }

  // ------------------------------------------------------------ scorers

  @Test
  void batch_taintToleration_reverseNormalisesAgainstTheWorstNode() {
    FakeNode clean = node("clean");
    FakeNode one = node("one").taint("a", "1", "PreferNoSchedule").taint("x", "", "NoSchedule");
    FakeNode two =
        node("two").taint("a", "1", "PreferNoSchedule").taint("b", "2", "PreferNoSchedule");
    FakeNode tolerated = node("tolerated").taint("c", "3", "PreferNoSchedule");
    FakeTask task = new FakeTask("ns/p").tolerates("c", "3", "PreferNoSchedule");
    // Counts 0, 1, 2, 0 → 100 − count·100/2.
    assertThat(batch(open(only("tainttoleration.weight", 1)), task, clean, one, two, tolerated))
        .containsExactly(100, 50, 0, 100);
  }

  @Test
  void batch_nodeAffinity_normalisesMatchedWeightsAgainstTheBest() {
    FakeNode a = node("a").label("zone", "a");
    FakeNode ssd = node("ssd").label("disk", "ssd");
    FakeNode both = node("both").label("zone", "a").label("disk", "ssd");
    FakeNode none = node("none");
    FakeTask task =
        new FakeTask("ns/p")
            .preferredNodeAffinity(2, "zone", "In", "a")
            .preferredNodeAffinity(3, "disk", "Exists");
    // Sums 2, 3, 5, 0 → ·100/5, then × weight 2.
    assertThat(batch(open(only("nodeaffinity.weight", 2)), task, a, ssd, both, none))
        .containsExactly(80, 120, 200, 0);
  }

  @Test
  void batch_nodeAffinityWithoutPreferredTerms_addsNothing() {
    FakeNode a = node("a").label("zone", "a");
    FakeTask task = new FakeTask("ns/p").requiredNodeAffinity("zone", "In", "a");
    assertThat(batch(open(only("nodeaffinity.weight", 2)), task, a)).containsExactly(0);
  }

  @Test
  void batch_interPodAffinity_minMaxNormalisesTopologySums() {
    FakeNode n1 = node("n1").label(ZONE, "a").label(HOST, "n1");
    FakeNode n2 = node("n2").label(ZONE, "a").label(HOST, "n2");
    FakeNode n3 = node("n3").label(ZONE, "b").label(HOST, "n3");
    new FakeTask("ns/web").label("app", "web").status(TaskStatus.RUNNING).on(n1);
    new FakeTask("ns/db").label("app", "db").status(TaskStatus.RUNNING).on(n2);
    FakeTask task =
        new FakeTask("ns/new")
            .preferredPodAffinity(10, ZONE, "app", "web")
            .preferredPodAntiAffinity(5, HOST, "app", "db");
    // zone a +10 (web on n1); host n2 −5 (db): n1 10, n2 5, n3 0 → 100, 50, 0; × 2.
    assertThat(batch(open(only("podaffinity.weight", 2)), task, n1, n2, n3))
        .containsExactly(200, 100, 0);
  }

  @Test
  void batch_interPodAffinity_countsExistingPodsPreferredTerms() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "b");
    FakeNode n3 = node("n3").label(ZONE, "c");
    new FakeTask("ns/likes-new")
        .preferredPodAffinity(4, ZONE, "app", "new")
        .status(TaskStatus.RUNNING)
        .on(n2);
    new FakeTask("ns/avoids-new")
        .preferredPodAntiAffinity(6, ZONE, "app", "new")
        .status(TaskStatus.RUNNING)
        .on(n3);
    FakeTask task = new FakeTask("ns/new").label("app", "new");
    // zone b +4, zone c −6: n1 0, n2 4, n3 −6 → (s + 6)·100/10.
    assertThat(batch(open(only("podaffinity.weight", 1)), task, n1, n2, n3))
        .containsExactly(60, 100, 0);
  }

  @Test
  void batch_interPodAffinity_readsTheSharedCounts_anEvictedPodStopsCounting() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "b");
    FakeTask likes =
        new FakeTask("ns/likes-new")
            .preferredPodAffinity(4, ZONE, "app", "new")
            .status(TaskStatus.RUNNING)
            .on(n2);
    FakeTask web = new FakeTask("ns/web").label("app", "web").status(TaskStatus.RUNNING).on(n1);
    RecordingExtensions ext = open(only("podaffinity.weight", 1));
    FakeTask task =
        new FakeTask("ns/new").label("app", "new").preferredPodAffinity(10, ZONE, "app", "web");
    // zone a +10 (web), zone b +4 (likes-new's term): n1 10, n2 4 → 100, 0.
    assertThat(batch(ext, task, n1, n2)).containsExactly(100, 0);

    session.evict(web);
    ext.get(ExtensionPoint.EVENT_HANDLER).deallocated(web);
    // Only zone b's +4 is left.
    assertThat(batch(ext, task, n1, n2)).containsExactly(0, 100);

    session.evict(likes);
    ext.get(ExtensionPoint.EVENT_HANDLER).deallocated(likes);
    assertThat(session.topology().podsWithPreferredPodTerms()).isZero();
    assertThat(batch(ext, task, n1, n2)).containsExactly(0, 0);

    session.undoEvict(web);
    ext.get(ExtensionPoint.EVENT_HANDLER).allocated(web);
    assertThat(batch(ext, task, n1, n2)).containsExactly(100, 0);
  }

  @Test
  void batch_interPodAffinity_namespacesAndNamespaceSelectors() {
    session.cluster(
        new ClusterInfo(
            null,
            null,
            null,
            List.of(
                new Namespace(
                    new ObjectMeta(
                        "team-a", "", null, null, null, Map.of("team", "a"), null, null)),
                new Namespace(ObjectMeta.named("", "team-b"))),
            null));
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "b");
    new FakeTask("team-a/web").label("app", "web").status(TaskStatus.RUNNING).on(n1);
    new FakeTask("team-b/web").label("app", "web").status(TaskStatus.RUNNING).on(n2);
    PodAffinityTerm bySelector =
        new PodAffinityTerm(
            new LabelSelector(Map.of("app", "web"), null),
            null,
            ZONE,
            new LabelSelector(Map.of("team", "a"), null),
            null,
            null);
    FakeTask task =
        new FakeTask("other/new")
            .podAffinity(
                new PodAffinity(null, List.of(new WeightedPodAffinityTerm(1, bySelector))));
    // Only team-a's web pod is covered: zone a wins.
    assertThat(batch(open(only("podaffinity.weight", 1)), task, n1, n2)).containsExactly(100, 0);

    // The default namespace is the pod's own: no web pod in "other" matches.
    FakeTask sameNamespace = new FakeTask("other/new2").preferredPodAffinity(1, ZONE, "app", "web");
    assertThat(batch(open(only("podaffinity.weight", 1)), sameNamespace, n1, n2))
        .containsExactly(0, 0);
  }

  @Test
  void batch_podTopologySpread_softConstraintOverAllNodes() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "a");
    FakeNode n3 = node("n3").label(ZONE, "b");
    FakeNode n4 = node("n4");
    FakeNode outside = node("outside").label(ZONE, "b");
    for (int i = 0; i < 2; i++) {
      new FakeTask("ns/web-" + i).label("app", "web").status(TaskStatus.RUNNING).on(n1);
    }
    new FakeTask("ns/web-b").label("app", "web").status(TaskStatus.RUNNING).on(outside);
    new FakeTask("other/web").label("app", "web").status(TaskStatus.RUNNING).on(n3);
    new FakeTask("ns/dying")
        .label("app", "web")
        .deleted(java.time.Instant.EPOCH)
        .status(TaskStatus.RELEASING)
        .on(n3);
    FakeTask task =
        new FakeTask("ns/new").label("app", "web").spread(1, ZONE, "ScheduleAnyway", "app", "web");
    // Candidates n1..n4; n4 lacks the zone label and is ignored. Domains a and b: weight ln 4.
    // Zone a counts 2 (n1); zone b counts 1 (the non-candidate "outside"; n3's pods are in another
    // namespace or terminating). Raw: n1, n2 round(2 ln 4) = 3, n3 round(ln 4) = 1.
    // Normalised 100·(3 + 1 − s)/3: 33, 33, 100; ignored n4 0. × 2.
    assertThat(batch(open(only("podtopologyspread.weight", 2)), task, n1, n2, n3, n4))
        .containsExactly(66, 66, 200, 0);
  }

  @Test
  void batch_podTopologySpread_hardConstraintsAreNotScored() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeTask task =
        new FakeTask("ns/new").label("app", "web").spread(1, ZONE, "DoNotSchedule", "app", "web");
    assertThat(batch(open(only("podtopologyspread.weight", 2)), task, n1)).containsExactly(0);
  }

  @Test
  void batch_podTopologySpread_systemDefaultsForReplicaSetPods() {
    FakeNode n1 = node("n1").label(HOST, "n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(HOST, "n2").label(ZONE, "a");
    FakeNode n3 = node("n3").label(HOST, "n3");
    for (int i = 0; i < 2; i++) {
      new FakeTask("ns/web-" + i).label("app", "web").status(TaskStatus.RUNNING).on(n1);
    }
    FakeTask task = new FakeTask("ns/new").label("app", "web").owner("ReplicaSet", "web-rs");
    // Hostname (skew 3, weight ln 5) and zone (skew 5, weight ln 4: values "a" and "" for n3).
    // n1: 2 ln 5 + 2 + 2 ln 4 + 4 = 11.99 → 12; n2: 2 + 2 ln 4 + 4 = 8.77 → 9; n3: 2 (no zone).
    // Normalised 100·(12 + 2 − s)/12: 16, 41, 100.
    assertThat(batch(open(only("podtopologyspread.weight", 1)), task, n1, n2, n3))
        .containsExactly(16, 41, 100);
    // Without a controlling ReplicaSet/StatefulSet there are no default constraints.
    FakeTask jobPod = new FakeTask("ns/job-pod").label("app", "web").owner("Job", "j");
    assertThat(batch(open(only("podtopologyspread.weight", 1)), jobPod, n1, n2, n3))
        .containsExactly(0, 0, 0);
  }

  @Test
  void nodeOrder_imageLocality_scalesByNodeSpread() {
    long mb = 1024L * 1024;
    FakeNode n1 = node("n1").image("nginx:latest", 500 * mb);
    FakeNode n2 = node("n2");
    FakeTask task = new FakeTask("ns/p").image("nginx");
    NodeOrderFn fn = open(only("imagelocality.weight", 2)).get(ExtensionPoint.NODE_ORDER);
    // 500MB × 1/2 nodes = 250MB; 100·(250 − 23)/(1000 − 23) = 23; × 2.
    assertThat(fn.score(task, n1)).isEqualTo(46);
    assertThat(fn.score(task, n2)).isZero();
    assertThat(fn.score(new FakeTask("ns/q").image("nginx:1.0"), n1)).isZero();
  }

  @Test
  void batch_bestEffortPod_skipsBalancedButGetsLeastDefaults() {
    FakeNode n1 = session.addNode("n1").allocatable("cpu", "1", "memory", "1Gi");
    FakeTask task = new FakeTask("ns/p");
    assertThat(batch(open(only("balancedresource.weight", 1)), task, n1)).containsExactly(0);
    // Least with 100m / 200Mi defaults: cpu 90, memory 80 (80.47) → 85.
    assertThat(batch(open(only("leastrequested.weight", 1)), task, n1)).containsExactly(85);
  }

  // ------------------------------------------------------------ node occupancy

  @Test
  void events_evictedTaskStopsCountingAndPipelinedTaskCounts() {
    FakeNode n1 = node("n1");
    FakeTask running =
        new FakeTask("ns/running")
            .requests("cpu", "2", "memory", "8Gi")
            .status(TaskStatus.RUNNING)
            .on(n1);
    RecordingExtensions ext = open(only("leastrequested.weight", 1));
    EventHandler events = ext.get(ExtensionPoint.EVENT_HANDLER);
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    // cpu 1000·100/4000 = 25, memory 4Gi·100/16Gi = 25.
    assertThat(batch(ext, task, n1)).containsExactly(25);

    running.status(TaskStatus.RELEASING);
    events.deallocated(running);
    // Volcano's NodeMap drops the evicted pod at once: cpu 75, memory 75.
    assertThat(batch(ext, task, n1)).containsExactly(75);

    FakeTask pipelined =
        new FakeTask("ns/pipelined")
            .requests("cpu", "2", "memory", "8Gi")
            .status(TaskStatus.PIPELINED)
            .on(n1);
    assertThat(events.allocated(pipelined).isSuccess()).isTrue();
    assertThat(batch(ext, task, n1)).containsExactly(25);

    events.deallocated(pipelined);
    events.deallocated(pipelined);
    assertThat(batch(ext, task, n1)).containsExactly(75);
  }

  @Test
  void events_anEvictionBeforeAnyScoring_stillStopsTheVictimCounting() {
    FakeNode n1 = node("n1");
    FakeTask running =
        new FakeTask("ns/running")
            .requests("cpu", "2", "memory", "8Gi")
            .status(TaskStatus.RUNNING)
            .on(n1);
    RecordingExtensions ext = open(only("leastrequested.weight", 1));
    // The pods are counted on first need; the node still lists the victim, as Releasing.
    running.status(TaskStatus.RELEASING);
    ext.<EventHandler>get(ExtensionPoint.EVENT_HANDLER).deallocated(running);
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    assertThat(batch(ext, task, n1)).containsExactly(75);
  }

  @Test
  void events_anAllocationTheNodeAlreadyShows_countsOnce() {
    FakeNode n1 = node("n1");
    RecordingExtensions ext = open(only("leastrequested.weight", 1));
    FakeTask placed =
        new FakeTask("ns/placed")
            .requests("cpu", "2", "memory", "8Gi")
            .status(TaskStatus.ALLOCATED)
            .on(n1);
    assertThat(ext.<EventHandler>get(ExtensionPoint.EVENT_HANDLER).allocated(placed).isSuccess())
        .isTrue();
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    assertThat(batch(ext, task, n1)).containsExactly(25);
  }

  @Test
  void snapshot_releasingTasksCount() {
    FakeNode n1 = node("n1");
    new FakeTask("ns/leaving")
        .requests("cpu", "2", "memory", "8Gi")
        .status(TaskStatus.RELEASING)
        .on(n1);
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    assertThat(batch(open(only("leastrequested.weight", 1)), task, n1)).containsExactly(25);
  }

  @Test
  void events_allocatedOnAnotherNode_movesTheTask() {
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    RecordingExtensions ext = open(only("leastrequested.weight", 1));
    EventHandler events = ext.get(ExtensionPoint.EVENT_HANDLER);
    FakeTask moving =
        new FakeTask("ns/moving")
            .requests("cpu", "2", "memory", "8Gi")
            .status(TaskStatus.ALLOCATED);
    events.allocated(moving.on(n1));
    events.allocated(moving.on(n2));
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    assertThat(batch(ext, task, n1, n2)).containsExactly(75, 25);
  }

  @Test
  void batch_nodeUnknownToTheSession_isNotScoredNorNormalisedAgainst() {
    FakeNode tainted = node("n1").taint("a", "", "PreferNoSchedule");
    FakeNode stranger = new FakeNode("stranger").allocatable("cpu", "4", "memory", "16Gi");
    FakeTask task = new FakeTask("ns/new");
    // Only n1 is scored: its one intolerable taint is the maximum, so it gets 0.
    assertThat(batch(open(only("tainttoleration.weight", 1)), task, stranger, tainted))
        .containsExactly(0, 0);
  }

  // ------------------------------------------------------------ weights and registration

  @Test
  void batch_addsWeightedScoresToWhatIsAlreadyThere() {
    FakeNode n1 = node("n1");
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    BatchNodeOrderFn fn =
        open(only("leastrequested.weight", 3)).get(ExtensionPoint.BATCH_NODE_ORDER);
    double[] scores = {1000};
    fn.score(task, List.of(n1), scores);
    // Least 75 × 3.
    assertThat(scores).containsExactly(1225);
  }

  @Test
  void batch_sumsEveryEnabledScorer() {
    FakeNode n1 = node("n1").taint("a", "", "PreferNoSchedule");
    FakeNode n2 = node("n2");
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    Map<String, Object> args = only("leastrequested.weight", 2);
    args.put("balancedresource.weight", 1);
    args.put("tainttoleration.weight", 3);
    // Least 75 × 2; balanced fractions 0.25 / 0.25 → 100; taint n1 0, n2 100 × 3.
    assertThat(batch(open(args), task, n1, n2)).containsExactly(250, 550);
  }

  @Test
  void onSessionOpen_allWeightsZero_registersNothing() {
    node("n1").image("nginx:latest", 1);
    Map<String, Object> args = only("leastrequested.weight", 0);
    assertThat(open(args).points()).isEmpty();
  }

  @Test
  void onSessionOpen_onlyImageLocality_registersNoBatchFunction() {
    node("n1").image("nginx:latest", 1);
    RecordingExtensions ext = open(only("imagelocality.weight", 1));
    assertThat(ext.has(ExtensionPoint.NODE_ORDER)).isTrue();
    assertThat(ext.has(ExtensionPoint.BATCH_NODE_ORDER)).isFalse();
  }
}
