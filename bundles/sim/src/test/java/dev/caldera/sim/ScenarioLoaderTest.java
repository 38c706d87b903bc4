package dev.caldera.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.Taint;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.testkit.KnownDifferences;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioLoaderTest {

  static Path resource(String name) throws URISyntaxException {
    return Path.of(ScenarioLoaderTest.class.getResource(name).toURI());
  }

  static Stream<Path> sharedScenarios() {
    String dir = System.getProperty("caldera.shared.dir");
    assumeThat(dir).as("system property caldera.shared.dir").isNotNull();
    Path scenarios = Path.of(dir, "scenarios");
    assumeThat(Files.isDirectory(scenarios)).as(scenarios + " exists").isTrue();
    List<Path> files = ScenarioLoader.expand(List.of(scenarios));
    assertThat(files).isNotEmpty();
    return files.stream();
  }

  /**
   * Every shared scenario loads, but those {@code KNOWN_DIFFERENCES.md} lists as wrong (some are
   * refused on purpose; {@code itests}' {@code AcceptanceScenariosTest} checks that they still
   * fail).
   */
  @ParameterizedTest
  @MethodSource("sharedScenarios")
  void load_everySharedScenario_loads(Path file) throws IOException {
    Path root = Path.of(System.getProperty("caldera.shared.dir"), "scenarios");
    String listed =
        KnownDifferences.wrongScenarios(Path.of("../../KNOWN_DIFFERENCES.md"))
            .get(root.relativize(file).toString().replace('\\', '/'));
    assumeThat(listed).as("listed as wrong in KNOWN_DIFFERENCES.md: " + listed).isNull();
    assertThatCode(() -> ScenarioLoader.load(file)).doesNotThrowAnyException();
  }

  @Test
  void load_sharedSeedWithAliases_resolvesMappingAliases() throws Exception {
    String dir = System.getProperty("caldera.shared.dir");
    assumeThat(dir).isNotNull();
    Path file = Path.of(dir, "scenarios/seeds/policy-custom-training-priority.yaml");
    assumeThat(Files.exists(file)).isTrue();

    Scenario s = ScenarioLoader.load(file);

    assertThat(s.objects().queues())
        .extracting(q -> q.metadata().annotations().get("volcano.sh/card.quota"))
        .containsExactly("{\"NVIDIA-GeForce-RTX-4090\":8}", "{\"NVIDIA-GeForce-RTX-4090\":8}");
  }

  @Test
  void load_topLevelFields() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));

    assertThat(s.name()).isEqualTo("full-objects");
    assertThat(s.description()).isEqualTo("every field the loader reads");
    assertThat(s.now()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
    assertThat(s.sessions()).isEqualTo(3);
    assertThat(s.conf().actions()).containsExactly("enqueue", "allocate");
    assertThat(s.policies()).containsExactly(Map.entry("a.policy", "policy a\n"));
    assertThat(s.nodeMetrics())
        .containsExactly(
            Map.entry("n1", new NodeMetrics(40, 60.5, s.now())),
            Map.entry("n2", new NodeMetrics(10, 20, Instant.parse("2026-03-01T09:00:00Z"))));
  }

  @Test
  void load_nodes_inManifestOrderWithEveryField() throws Exception {
    List<Node> nodes = ScenarioLoader.load(resource("/good/full-objects.yaml")).objects().nodes();

    assertThat(nodes).extracting(Node::name).containsExactly("n1", "n2");
    Node n1 = nodes.get(0);
    assertThat(n1.unschedulable()).isTrue();
    assertThat(n1.taints()).containsExactly(new Taint("gpu", "true", "NoSchedule"));
    assertThat(n1.allocatable())
        .containsEntry("cpu", Quantity.parse("7.5"))
        .containsEntry("memory", Quantity.parse("30Gi"))
        .containsEntry("pods", Quantity.parse("110"))
        .containsEntry("nvidia.com/gpu", Quantity.parse("4"));
    assertThat(n1.capacity()).containsEntry("cpu", Quantity.parse("8"));
    assertThat(n1.images()).hasSize(1);
    assertThat(n1.images().get(0).names()).containsExactly("nginx:1.25", "docker.io/nginx:1.25");
    assertThat(n1.images().get(0).sizeBytes()).isEqualTo(1_000_000L);
    assertThat(n1.metadata().labels()).containsEntry("zone", "a");
    // Allocatable defaults to capacity when the manifest gives only capacity.
    assertThat(nodes.get(1).allocatable()).containsEntry("memory", Quantity.parse("4Gi"));
  }

  @Test
  void load_pod_specAndStatus() throws Exception {
    Pod p = pod(ScenarioLoader.load(resource("/good/full-objects.yaml")), "ns1/p1");

    assertThat(p.metadata().uid()).isEqualTo("uid-p1");
    assertThat(p.metadata().creationTimestamp()).isEqualTo(Instant.parse("2026-01-01T00:00:05Z"));
    assertThat(p.metadata().deletionTimestamp()).isEqualTo(Instant.parse("2026-01-02T00:00:00Z"));
    assertThat(p.metadata().ownerReferences()).hasSize(1);
    assertThat(p.metadata().ownerReferences().get(0).controller()).isTrue();
    assertThat(p.metadata().ownerReferences().get(0).kind()).isEqualTo("Job");
    assertThat(p.schedulerName()).isEqualTo("volcano");
    assertThat(p.nodeName()).isEqualTo("n1");
    assertThat(p.nodeSelector()).containsExactly(Map.entry("zone", "a"));
    assertThat(p.phase()).isEqualTo("Running");
    assertThat(p.nominatedNodeName()).isEqualTo("n2");
    assertThat(p.conditions()).hasSize(1);
    assertThat(p.conditions().get(0).lastTransitionTime())
        .isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
    assertThat(p.overhead()).containsEntry("cpu", Quantity.parse("50m"));
    assertThat(p.schedulingGates()).containsExactly("wait");
    assertThat(p.tolerations()).hasSize(2);
    assertThat(p.tolerations().get(0).operator()).isEqualTo("Exists");
    assertThat(p.tolerations().get(1).operator()).isEqualTo("Equal");
    assertThat(p.tolerations().get(1).tolerationSeconds()).isEqualTo(30L);
  }

  @Test
  void load_pod_containersWithLimitsDefaultingRequests() throws Exception {
    Pod p = pod(ScenarioLoader.load(resource("/good/full-objects.yaml")), "ns1/p1");

    Container c = p.containers().get(0);
    assertThat(c.image()).isEqualTo("nginx:1.25");
    // cpu keeps its request; the gpu has only a limit, which becomes its request.
    assertThat(c.requests())
        .containsOnly(
            Map.entry("cpu", Quantity.parse("1")),
            Map.entry("memory", Quantity.parse("1Gi")),
            Map.entry("nvidia.com/gpu", Quantity.parse("1")));
    assertThat(c.ports()).hasSize(2);
    assertThat(c.ports().get(0).hostPort()).isEqualTo(8080);
    assertThat(c.ports().get(0).protocol()).isEqualTo("UDP");
    assertThat(c.ports().get(0).hostIP()).isEqualTo("10.0.0.1");
    assertThat(c.ports().get(1).protocol()).isEqualTo("TCP");
    assertThat(p.initContainers())
        .extracting(Container::restartPolicy)
        .containsExactly("", "Always");
  }

  @Test
  void load_pod_affinityAndSpread() throws Exception {
    Pod p = pod(ScenarioLoader.load(resource("/good/full-objects.yaml")), "ns1/p1");

    assertThat(p.nodeAffinity().required()).hasSize(1);
    assertThat(p.nodeAffinity().required().get(0).matchExpressions().get(0).values())
        .containsExactly("a", "b");
    assertThat(p.nodeAffinity().required().get(0).matchFields().get(0).operator())
        .isEqualTo("NotIn");
    assertThat(p.nodeAffinity().preferred().get(0).weight()).isEqualTo(10);
    assertThat(p.nodeAffinity().preferred().get(0).preference().matchExpressions().get(0).key())
        .isEqualTo("disk");
    PodAffinityTerm term = p.podAffinity().required().get(0);
    assertThat(term.labelSelector().matchLabels()).containsExactly(Map.entry("app", "db"));
    assertThat(term.labelSelector().matchExpressions().get(0).operator()).isEqualTo("NotIn");
    assertThat(term.namespaces()).containsExactly("ns2");
    assertThat(term.topologyKey()).isEqualTo("zone");
    assertThat(term.namespaceSelector().matchLabels()).containsExactly(Map.entry("team", "a"));
    assertThat(term.matchLabelKeys()).containsExactly("rev");
    assertThat(term.mismatchLabelKeys()).containsExactly("other");
    assertThat(p.podAntiAffinity().required()).isEmpty();
    assertThat(p.podAntiAffinity().preferred().get(0).weight()).isEqualTo(50);
    assertThat(p.podAntiAffinity().preferred().get(0).term().topologyKey())
        .isEqualTo("kubernetes.io/hostname");
    var spread = p.topologySpreadConstraints().get(0);
    assertThat(spread.maxSkew()).isEqualTo(2);
    assertThat(spread.whenUnsatisfiable()).isEqualTo("ScheduleAnyway");
    assertThat(spread.minDomains()).isEqualTo(2);
    assertThat(spread.nodeAffinityPolicy()).isEqualTo("Honor");
    assertThat(spread.nodeTaintsPolicy()).isEqualTo("Ignore");
    assertThat(spread.matchLabelKeys()).containsExactly("pod-template-hash");
  }

  @Test
  void load_podWithoutAffinity_hasEmptyAffinities() throws Exception {
    Pod p = pod(ScenarioLoader.load(resource("/good/full-objects.yaml")), "ns1/raw");

    assertThat(p.nodeAffinity().required()).isNull();
    assertThat(p.nodeAffinity().preferred()).isEmpty();
    assertThat(p.podAffinity().isEmpty()).isTrue();
    assertThat(p.podAntiAffinity().isEmpty()).isTrue();
    assertThat(p.phase()).isEqualTo("Pending");
  }

  @Test
  void load_queues_everyFieldAndDefaults() throws Exception {
    List<Queue> queues =
        ScenarioLoader.load(resource("/good/full-objects.yaml")).objects().queues();

    assertThat(queues).extracting(Queue::name).containsExactly("q1", "q2");
    Queue q1 = queues.get(0);
    assertThat(q1.weight()).isEqualTo(3);
    assertThat(q1.capability()).containsEntry("memory", Quantity.parse("8Gi"));
    assertThat(q1.deserved()).containsExactly(Map.entry("cpu", Quantity.parse("2")));
    assertThat(q1.guarantee()).containsExactly(Map.entry("cpu", Quantity.parse("1")));
    assertThat(q1.reclaimable()).isFalse();
    assertThat(q1.parent()).isEqualTo("eng");
    assertThat(q1.priority()).isEqualTo(5);
    assertThat(q1.nodeGroupAffinity().required()).containsExactly("g1");
    assertThat(q1.nodeGroupAffinity().preferred()).containsExactly("g2");
    assertThat(q1.nodeGroupAntiAffinity().required()).containsExactly("g3");
    assertThat(q1.state()).isEqualTo("Closed");
    assertThat(q1.allocated()).containsExactly(Map.entry("cpu", Quantity.parse("1")));
    Queue q2 = queues.get(1);
    assertThat(q2.weight()).isEqualTo(1);
    assertThat(q2.state()).isEqualTo("Open");
    assertThat(q2.reclaimable()).isNull();
    assertThat(q2.capability()).isNull();
    assertThat(q2.nodeGroupAffinity()).isNull();
    // q2's annotations are a YAML alias of q1's.
    assertThat(q2.metadata().annotations())
        .containsOnly(Map.entry("team", "ml"), Map.entry("volcano.sh/x", "1"));
  }

  @Test
  void load_podGroups_everyFieldAndDefaults() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));

    PodGroup pg1 = group(s, "ns1/pg1");
    assertThat(pg1.queue()).isEqualTo("q1");
    assertThat(pg1.minMember()).isEqualTo(2);
    assertThat(pg1.minTaskMember()).containsOnly(Map.entry("", 1), Map.entry("worker", 1));
    assertThat(pg1.minResources()).containsExactly(Map.entry("cpu", Quantity.parse("2")));
    assertThat(pg1.priorityClassName()).isEqualTo("high");
    assertThat(pg1.phase()).isEqualTo("Inqueue");
    assertThat(pg1.conditions().get(0).reason()).isEqualTo("NotEnoughResources");
    PodGroup pg2 = group(s, "ns1/pg2");
    assertThat(pg2.queue()).isEqualTo("default");
    assertThat(pg2.phase()).isEqualTo("Pending");
    assertThat(pg2.minResources()).isNull();
  }

  @Test
  void load_otherKinds() throws Exception {
    ClusterState st = ScenarioLoader.load(resource("/good/full-objects.yaml")).objects();

    assertThat(st.priorityClasses()).hasSize(2);
    assertThat(st.priorityClasses().get(1).globalDefault()).isTrue();
    assertThat(st.podDisruptionBudgets()).hasSize(1);
    var pdb = st.podDisruptionBudgets().get(0);
    assertThat(pdb.disruptionsAllowed()).isEqualTo(1);
    assertThat(pdb.disruptedPods()).containsExactly("p1");
    assertThat(pdb.selector().matchLabels()).containsExactly(Map.entry("app", "web"));
    assertThat(st.resourceQuotas()).hasSize(2);
    // Only spec.hard given: it is the hard limit; status.hard wins when both are given.
    assertThat(st.resourceQuotas().get(0).hard()).containsEntry("cpu", Quantity.parse("10"));
    assertThat(st.resourceQuotas().get(0).used()).containsEntry("cpu", Quantity.parse("2"));
    assertThat(st.resourceQuotas().get(1).hard()).containsEntry("cpu", Quantity.parse("20"));
    assertThat(st.namespaces()).hasSize(1);
    assertThat(st.namespaces().get(0).metadata().labels()).containsEntry("team", "a");
  }

  @Test
  void load_keepsTheObjectsAsWritten_andTheFirstSnapshotAdmitsThem() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));

    Pod defaulted = written(s, "ns1/defaulted");
    assertThat(defaulted.priority()).as("no priority written, none filled at load").isNull();
    Pod lone = written(s, "ns2/lone");
    assertThat(lone.metadata().annotations()).doesNotContainKey(GROUP);
    assertThat(s.objects().podGroups())
        .as("no implicit pod group at load")
        .extracting(PodGroup::key)
        .containsExactly("ns1/pg1", "ns1/pg2");

    ClusterSnapshot first = s.cluster().snapshot(s.now());
    assertThat(seen(first, "ns1/defaulted").priority())
        .as("the global default class's value, filled at the snapshot")
        .isEqualTo(7);
    assertThat(seen(first, "ns2/lone").metadata().annotations())
        .containsEntry(GROUP, "podgroup-ns2-lone");
    assertThat(first.podGroups()).extracting(PodGroup::key).contains("ns2/podgroup-ns2-lone");
  }

  @Test
  void load_addsNoStandInQueue_theSnapshotDoesUnderTheConfsHierarchy() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/minimal.yaml"));

    assertThat(s.objects().queues()).isEmpty();
    assertThat(s.rules().hierarchicalQueues()).isTrue();
    assertThat(s.cluster().snapshot(s.now()).queues())
        .extracting(Queue::name)
        .containsExactly("default", "root");
  }

  @Test
  void load_keepsPreemptionPoliciesInTheRules_forTheSnapshotToCopyIntoPods() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));

    Pod raw = written(s, "ns1/p1");
    assertThat(raw.priority()).isNull();
    assertThat(raw.preemptionPolicy()).isEmpty();
    assertThat(s.rules().preemptionPolicies()).containsEntry("high", "Never");
    Pod admitted = seen(s.cluster().snapshot(s.now()), "ns1/p1");
    assertThat(admitted.priority()).isEqualTo(1000);
    assertThat(admitted.preemptionPolicy()).isEqualTo("Never");
  }

  @Test
  void admission_fillsPriorityFromClassGlobalDefaultOrNothing() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));

    Pod fromClass = pod(s, "ns1/p1");
    assertThat(fromClass.priority()).isEqualTo(1000);
    assertThat(fromClass.preemptionPolicy()).isEqualTo("Never");
    assertThat(pod(s, "ns1/raw").priority()).isEqualTo(42);
    assertThat(pod(s, "ns1/raw").preemptionPolicy()).isEmpty();
    assertThat(pod(s, "ns1/defaulted").priority()).isEqualTo(7);
    assertThat(pod(s, "ns1/missing-class").priority()).isNull();
  }

  @Test
  void admission_noGlobalDefault_leavesPriorityNull() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/minimal.yaml"));

    assertThat(pod(s, "ns/p").priority()).isNull();
  }

  @Test
  void admission_podWithoutGroup_getsImplicitGroup() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));

    Pod lone = pod(s, "ns2/lone");
    String name = "podgroup-ns2-lone";
    assertThat(lone.metadata().annotations()).containsEntry("scheduling.k8s.io/group-name", name);
    PodGroup pg = group(s, "ns2/" + name);
    assertThat(pg.queue()).isEqualTo("q2");
    assertThat(pg.minMember()).isEqualTo(1);
    assertThat(pg.minResources())
        .containsOnly(
            Map.entry("cpu", Quantity.parse("500m")), Map.entry("memory", Quantity.parse("1Gi")));
    assertThat(pg.minResources().get("memory").toString()).isEqualTo("1Gi");
    assertThat(pg.priorityClassName()).isEqualTo("high");
    assertThat(pg.phase()).isEqualTo("Pending");
    assertThat(pg.metadata().creationTimestamp()).isEqualTo(lone.metadata().creationTimestamp());
    assertThat(pg.metadata().annotations())
        .containsOnly(Map.entry("volcano.sh/preemptable", "false"));
    assertThat(pg.metadata().ownerReferences().get(0).name()).isEqualTo("lone");
    // Pods of other schedulers get no group.
    assertThat(pod(s, "ns2/other-scheduler").metadata().annotations()).isEmpty();
    assertThat(admitted(s).podGroups()).hasSize(3);
  }

  @Test
  void admission_implicitGroupRequests_countInitContainersAndOverhead() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/full-objects.yaml"));
    // p1 has a group; compute what its implicit group would have asked through PodRequests.
    Pod p1 = pod(s, "ns1/p1");
    Map<String, Quantity> r = dev.caldera.admission.PodRequests.of(p1);

    // containers 1 + 0.5 + sidecar 0.1 = 1.6; init 3 + sidecar started before it (none) = 3;
    // max 3, plus overhead 50m.
    assertThat(r.get("cpu")).isEqualTo(Quantity.parse("3050m"));
    assertThat(r.get("memory")).isEqualTo(Quantity.parse("1Gi"));
  }

  @Test
  void admission_noQueues_addsDefault_andHierarchyAddsRoot() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/minimal.yaml"));

    assertThat(admitted(s).queues()).extracting(Queue::name).containsExactly("default", "root");
    assertThat(admitted(s).queues().get(0).state()).isEqualTo("Open");
    assertThat(admitted(s).podGroups()).extracting(PodGroup::queue).containsExactly("default");
  }

  @Test
  void admission_queuesGiven_addsNothing() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/good/no-times.yaml"));

    assertThat(admitted(s).queues()).extracting(Queue::name).containsExactly("q");
  }

  @Test
  void now_absent_isLatestTimestampOrFixedInstant() throws Exception {
    assertThat(ScenarioLoader.load(resource("/good/minimal.yaml")).now())
        .isEqualTo(Instant.parse("2026-05-05T05:05:05Z"));
    assertThat(ScenarioLoader.load(resource("/good/no-times.yaml")).now())
        .isEqualTo(ScenarioLoader.DEFAULT_NOW);
  }

  @Test
  void load_expectations() throws Exception {
    Expectations e = ScenarioLoader.load(resource("/good/full-objects.yaml")).expect();

    assertThat(e.bind()).containsExactly(Map.entry("ns1/p2", "n1"));
    assertThat(e.bindCount()).isEqualTo(3);
    assertThat(e.evict()).containsExactly("ns1/p1", "ns1/p1");
    assertThat(e.evictCount()).isEqualTo(2);
    assertThat(e.pipelined()).containsExactly(Map.entry("ns1/pg2", List.of("n1", "n2")));
    assertThat(e.podGroupPhase()).containsExactly(Map.entry("ns1/pg1", "Running"));
    assertThat(e.queueAllocated().get("q1"))
        .containsOnly(
            Map.entry("cpu", Quantity.parse("3")), Map.entry("memory", Quantity.parse("1Gi")));
    assertThat(e.events())
        .containsExactly(
            new Expectations.EventExpectation("ns1/p3", null, "insufficient"),
            new Expectations.EventExpectation(null, "Unschedulable", "x"));
    assertThat(ScenarioLoader.load(resource("/good/minimal.yaml")).expect()).isNull();
  }

  @Test
  void expand_directory_givesSortedYamlFilesOnly(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("b"));
    Files.writeString(dir.resolve("b/z.yml"), "");
    Files.writeString(dir.resolve("a.yaml"), "");
    Files.writeString(dir.resolve("INDEX.md"), "");
    Path single = dir.resolve("INDEX.md");

    assertThat(ScenarioLoader.expand(List.of(dir, single)))
        .containsExactly(dir.resolve("a.yaml"), dir.resolve("b/z.yml"), single);
  }

  private static final String GROUP = "scheduling.k8s.io/group-name";

  static Pod written(Scenario s, String key) {
    return s.objects().pods().stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow();
  }

  static Pod seen(ClusterSnapshot snapshot, String key) {
    return snapshot.pods().stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow();
  }

  /** The objects as the first session sees them: admitted by the scenario's embedded cluster. */
  static ClusterState admitted(Scenario s) {
    return s.cluster().state();
  }

  static Pod pod(Scenario s, String key) {
    return admitted(s).pods().stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow();
  }

  static PodGroup group(Scenario s, String key) {
    return admitted(s).podGroups().stream()
        .filter(p -> p.key().equals(key))
        .findFirst()
        .orElseThrow();
  }
}
