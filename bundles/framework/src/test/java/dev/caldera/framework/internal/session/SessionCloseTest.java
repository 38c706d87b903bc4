package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionCloseTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: a}]
      """;

  private static SessionProbe probe() {
    return new SessionProbe().plugin("a", (s, x) -> {});
  }

  @Test
  void phase_runningWhenScheduledTasksReachMinMember_elsePendingUnlessInqueue() throws Exception {
    SessionResult result =
        probe()
            .node("n1", "8")
            .job("running", 2, "r-1@n1", "r-2@n1")
            .job("short", 3, "s-1@n1", "s-2")
            .run(CONF, ssn -> ssn.setJobPhase(ssn.job("ns/short"), PodGroupPhase.Pending));
    assertThat(result.podGroups().get("ns/running").phase()).isEqualTo("Running");
    assertThat(result.podGroups().get("ns/running").running()).isEqualTo(2);
    assertThat(result.podGroups().get("ns/short").phase()).isEqualTo("Pending");
  }

  @Test
  void phase_staysInqueueForAnInqueueJobBelowMinMember() throws Exception {
    SessionResult result = probe().node("n1", "8").job("waiting", 2, "w-1").run(CONF, ssn -> {});
    assertThat(result.podGroups().get("ns/waiting").phase()).isEqualTo("Inqueue");
  }

  @Test
  void phase_unknownWhenRunningTasksAndUnschedulableConditionSetThisSession() throws Exception {
    SessionResult result =
        probe()
            .node("n1", "8")
            .job("broken", 3, "b-1@n1", "b-2")
            .run(
                CONF,
                ssn ->
                    ssn.setPodGroupCondition(
                        ssn.job("ns/broken"),
                        new PodCondition("Unschedulable", "True", "NotEnoughResources", "m")));
    assertThat(result.podGroups().get("ns/broken").phase()).isEqualTo("Unknown");
  }

  @Test
  void queueAllocated_countsAllocatedTasksAndAddsThemToAncestorsWhenRootExists() throws Exception {
    SessionProbe p = probe().node("n1", "8").job("j", 1, "j-1@n1", "j-2");
    p.queues.clear();
    p.queues.add(SessionProbe.queue("root"));
    p.queues.add(withParent("eng", "root"));
    p.queues.add(withParent("default", "eng"));
    p.queues.add(SessionProbe.queue("idle"));
    SessionResult result = p.run(CONF, ssn -> {});
    assertThat(result.queueAllocated().get("default").get("cpu")).hasToString("1");
    assertThat(result.queueAllocated().get("eng").get("cpu")).hasToString("1");
    assertThat(result.queueAllocated().get("root").get("cpu")).hasToString("1");
    assertThat(result.queueAllocated().get("root").get("pods")).hasToString("1");
    assertThat(result.queueAllocated().get("idle"))
        .as("queues with nothing allocated still report cpu and memory")
        .containsOnlyKeys("cpu", "memory");
  }

  @Test
  void queueAllocated_followsHierarchyAnnotationsWhenParentIsUnset() throws Exception {
    SessionProbe p = probe().node("n1", "8").job("j", 1, "j-1@n1");
    p.queues.clear();
    p.queues.add(withPath("eng", "root/eng"));
    p.queues.add(withPath("default", "root/eng/prod"));
    p.queues.add(withPath("biz", "root/biz"));
    SessionResult result = p.run(CONF, ssn -> {});
    assertThat(result.queueAllocated().get("default").get("cpu")).hasToString("1");
    assertThat(result.queueAllocated().get("eng").get("cpu")).hasToString("1");
    assertThat(result.queueAllocated().get("biz").get("cpu")).hasToString("0");
  }

  private static Queue withPath(String name, String path) {
    return new Queue(
        new ObjectMeta(
            name, "", null, null, null, null, java.util.Map.of("volcano.sh/hierarchy", path), null),
        1,
        null,
        null,
        null,
        null,
        "",
        0,
        null,
        null,
        "Open",
        null);
  }

  @Test
  void events_aReadyJobIsNotReportedUnschedulable() throws Exception {
    SessionResult result =
        probe()
            .node("n1", "8")
            .job("j", 1, "j-1")
            .run(
                CONF,
                ssn -> {
                  var stmt = ssn.newStatement();
                  stmt.allocate(ssn.job("ns/j").tasks().get(0), ssn.node("n1"));
                  stmt.commit();
                });
    assertThat(result.binds()).extracting(SessionResult.Bind::node).containsExactly("n1");
    assertThat(result.events())
        .extracting(e -> e.type() + " " + e.reason() + ": " + e.message())
        .contains("Normal Scheduled: Successfully assigned ns/j-1 to n1")
        .noneMatch(m -> m.startsWith("Warning") || m.contains("tasks in gang unschedulable"));
  }

  @Test
  void podCondition_aPodLargerThanEveryNode_namesTheResourceAndTheLargestNode() throws Exception {
    // No action tries the task (as when its job is not enqueued): the message still says why.
    SessionResult result =
        probe().node("n1", "500m").node("n2", "250m").job("j", 1, "j-1").run(CONF, ssn -> {});
    assertThat(result.pods().get("ns/j-1").condition().message())
        .isEqualTo(
            "0/2 nodes are unavailable: 2 Insufficient cpu. The pod requests cpu 1; the largest"
                + " node has 500m allocatable.");
    assertThat(result.events())
        .filteredOn(e -> e.kind().equals("PodGroup"))
        .extracting(SessionResult.Event::message)
        .singleElement()
        .asString()
        .endsWith(
            "Origin reason is j-1: 0/2 nodes are unavailable: 2 Insufficient cpu. The pod"
                + " requests cpu 1; the largest node has 500m allocatable.");
  }

  @Test
  void podCondition_eachResourceFitsSomeNodeButNoneHasAll_namesTheWholeRequest() throws Exception {
    // cpu fits n1 and memory fits n2, but neither has both: the message must not end "requests ."
    SessionResult result =
        probe()
            .node("n1", "4", "1Gi")
            .node("n2", "500m", "8Gi")
            .job("j", 1, Map.of("cpu", Quantity.parse("2"), "memory", Quantity.parse("2Gi")), "j-1")
            .run(CONF, ssn -> {});
    assertThat(result.pods().get("ns/j-1").condition().message())
        .isEqualTo(
            "0/2 nodes are unavailable: 1 Insufficient cpu, 1 Insufficient memory. The pod requests"
                + " cpu 2, memory 2Gi; no node has all of it allocatable.");
  }

  @Test
  void podCondition_selectorMismatchOnAFullNode_readsAsTheMismatch_asKubeSchedulerOrdersFilters()
      throws Exception {
    // A 100m pod with nodeSelector disk=ssd: the two ssd nodes are full, and so are two of the six
    // hdd nodes. Allocate checks resources first (as Volcano), which found the full hdd nodes short
    // of cpu; kube-scheduler's node affinity filter runs before resource fit and names them.
    List<String> full = List.of("ssd-1", "ssd-2", "hdd-1", "hdd-2");
    SessionProbe probe =
        new SessionProbe()
            .plugin(
                "a",
                (s, x) ->
                    x.add(
                        ExtensionPoint.PREDICATE,
                        (t, n) ->
                            n.name().startsWith("hdd")
                                ? Status.unresolvable(
                                    "node(s) didn't match Pod's node affinity/selector")
                                : Status.OK));
    for (String n : List.of("ssd-1", "ssd-2", "hdd-1", "hdd-2", "hdd-3", "hdd-4", "hdd-5")) {
      probe.node(n, "8");
    }
    SessionResult result =
        probe
            .node("hdd-6", "8")
            .job("j", 1, "j-1")
            .run(
                CONF,
                ssn -> {
                  var task = ssn.job("ns/j").tasks().get(0);
                  for (var node : ssn.nodes()) {
                    ssn.recordFitError(
                        task,
                        node.name(),
                        full.contains(node.name())
                            ? Status.unschedulable("Insufficient cpu")
                            : ssn.predicate(task, node));
                  }
                });

    assertThat(result.pods().get("ns/j-1").condition().message())
        .isEqualTo(
            "0/8 nodes are unavailable: 2 Insufficient cpu, 6 node(s) didn't match Pod's node"
                + " affinity/selector.");
    assertThat(result.events())
        .filteredOn(e -> e.kind().equals("Pod"))
        .extracting(SessionResult.Event::message)
        .containsExactly(
            "0/8 nodes are unavailable: 2 Insufficient cpu, 6 node(s) didn't match Pod's node"
                + " affinity/selector.");
  }

  @Test
  void podCondition_aPodThatFitsSomeNode_keepsTheGangMessage() throws Exception {
    SessionResult result =
        probe().node("n1", "500m").node("n2", "8").job("j", 2, "j-1").run(CONF, ssn -> {});
    assertThat(result.pods().get("ns/j-1").condition().message())
        .startsWith("pod group is not ready")
        .doesNotContain("Insufficient");
  }

  @Test
  void podCondition_pendingTaskWithFitErrorsGetsTheNodesMessage() throws Exception {
    SessionResult result =
        probe()
            .node("n1", "8")
            .node("n2", "8")
            .job("j", 1, "j-1")
            .run(
                CONF,
                ssn -> {
                  var task = ssn.job("ns/j").tasks().get(0);
                  ssn.recordFitError(
                      task,
                      "n1",
                      dev.caldera.api.extension.Status.unschedulable("Insufficient cpu"));
                  ssn.recordFitError(
                      task,
                      "n2",
                      dev.caldera.api.extension.Status.unschedulable("Insufficient cpu"));
                });
    SessionResult.PodStatusUpdate update = result.pods().get("ns/j-1");
    assertThat(update.condition().reason()).isEqualTo("Unschedulable");
    assertThat(update.condition().message())
        .isEqualTo("0/2 nodes are unavailable: 2 Insufficient cpu.");
  }

  private static Queue withParent(String name, String parent) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, parent, 0, null, null, "Open", null);
  }
}
