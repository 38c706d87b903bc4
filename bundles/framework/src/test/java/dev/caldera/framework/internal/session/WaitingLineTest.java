package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.internal.actions.AllocateAction;
import dev.caldera.framework.internal.actions.EnqueueAction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitingLineTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: a}]
      """;

  private static void enqueueOnly(dev.caldera.api.action.ActionSession ssn) {
    new EnqueueAction().execute(ssn);
  }

  private static void enqueueAndAllocate(dev.caldera.api.action.ActionSession ssn) {
    new EnqueueAction().execute(ssn);
    new AllocateAction().execute(ssn);
  }

  /** The probe's job {@code name}, made Pending with a minimum of {@code cpu}, in {@code queue}. */
  private static void pending(SessionProbe p, String name, String queue, String cpu) {
    for (int i = 0; i < p.podGroups.size(); i++) {
      PodGroup pg = p.podGroups.get(i);
      if (pg.metadata().name().equals(name)) {
        p.podGroups.set(
            i,
            new PodGroup(
                pg.metadata(),
                queue,
                pg.minMember(),
                null,
                Map.of("cpu", Quantity.parse(cpu)),
                null,
                "Pending",
                null));
      }
    }
  }

  private static SessionResult.Waiting waiting(SessionResult result, String podGroup) {
    return result.waiting().stream()
        .filter(w -> w.podGroup().equals(podGroup))
        .findFirst()
        .orElseThrow(() -> new AssertionError(podGroup + " not waiting: " + result.waiting()));
  }

  @Test
  void enqueueRejection_namesTheVotingPlugin() throws Exception {
    SessionProbe p =
        new SessionProbe()
            .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_ENQUEUEABLE, job -> Vote.REJECT))
            .node("n1", "8")
            .job("j", 1, "j-1");
    pending(p, "j", "default", "1");
    SessionResult result = p.run(CONF, WaitingLineTest::enqueueOnly);
    Blocker b = waiting(result, "ns/j").blocker();
    assertThat(b.stage()).isEqualTo(Blocker.Stage.ENQUEUE);
    assertThat(b.plugin()).isEqualTo("a");
    assertThat(b.action()).isEqualTo("probe");
    assertThat(b.message()).contains("plugin a");
  }

  @Test
  void reportedBlocker_keepsFiguresAndGetsActionAndPlugin() throws Exception {
    List<Blocker.Figure> figures =
        List.of(new Blocker.Figure("nvidia.com/gpu", 8, 60, 64, "capability"));
    SessionProbe p =
        new SessionProbe()
            .plugin(
                "a",
                (s, x) ->
                    x.add(
                        ExtensionPoint.JOB_ENQUEUEABLE,
                        job -> {
                          s.reportBlocker(
                              job,
                              Blocker.of(
                                  Blocker.Stage.QUEUE_CAPABILITY,
                                  Blocker.describe("default", figures),
                                  figures));
                          return Vote.REJECT;
                        }))
            .node("n1", "8")
            .job("j", 1, "j-1");
    pending(p, "j", "default", "1");
    Blocker b = waiting(p.run(CONF, WaitingLineTest::enqueueOnly), "ns/j").blocker();
    assertThat(b.stage()).isEqualTo(Blocker.Stage.QUEUE_CAPABILITY);
    assertThat(b.plugin()).isEqualTo("a");
    assertThat(b.figures()).isEqualTo(figures);
    assertThat(b.message())
        .isEqualTo("queue default: nvidia.com/gpu requested 8, allocated 60 of capability 64");
  }

  @Test
  void positions_followQueueOrderThenJobOrderOfThePlugins() throws Exception {
    SessionProbe p =
        new SessionProbe()
            .plugin(
                "a",
                (s, x) -> {
                  // Later names first, to show that the plugins' order wins over creation/name.
                  x.add(ExtensionPoint.JOB_ORDER, (l, r) -> r.name().compareTo(l.name()));
                  x.add(ExtensionPoint.QUEUE_ORDER, (l, r) -> r.name().compareTo(l.name()));
                  x.add(ExtensionPoint.JOB_ENQUEUEABLE, job -> Vote.REJECT);
                })
            .node("n1", "8")
            .job("a1", 1, "a1-1")
            .job("a2", 1, "a2-1")
            .job("b1", 1, "b1-1");
    p.queues.add(SessionProbe.queue("batch"));
    pending(p, "a1", "default", "1");
    pending(p, "a2", "default", "1");
    pending(p, "b1", "batch", "1");
    SessionResult result = p.run(CONF, WaitingLineTest::enqueueOnly);
    assertThat(result.waiting())
        .extracting(w -> w.queue() + ":" + w.position() + ":" + w.podGroup())
        .containsExactly("default:1:ns/a2", "default:2:ns/a1", "batch:1:ns/b1");
  }

  @Test
  void missingQueue_isAReasonAndAnEvent() throws Exception {
    SessionProbe p = new SessionProbe().plugin("a", (s, x) -> {}).node("n1", "8");
    p.job("lost", 1, "lost-1");
    pending(p, "lost", "nowhere", "1");
    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);
    SessionResult.Waiting w = waiting(result, "ns/lost");
    assertThat(w.blocker().stage()).isEqualTo(Blocker.Stage.QUEUE_MISSING);
    assertThat(w.position()).isZero();
    assertThat(w.blocker().message()).contains("queue nowhere does not exist");
    assertThat(result.events())
        .anySatisfy(
            e -> {
              assertThat(e.object()).isEqualTo("ns/lost");
              assertThat(e.reason()).isEqualTo(SessionRunner.QUEUE_NOT_FOUND);
            });
  }

  @Test
  void gangHeldByQueueCapability_itsPodsSayWhy_withTheNumbers() throws Exception {
    List<Blocker.Figure> figures = List.of(new Blocker.Figure("cpu", 2, 7, 8, "capability"));
    SessionProbe p =
        new SessionProbe()
            .plugin(
                "a",
                (s, x) ->
                    x.add(
                        ExtensionPoint.JOB_ENQUEUEABLE,
                        job -> {
                          s.reportBlocker(
                              job,
                              Blocker.of(
                                  Blocker.Stage.QUEUE_CAPABILITY,
                                  Blocker.describe("default", figures),
                                  figures));
                          return Vote.REJECT;
                        }))
            .node("n1", "8")
            .job("j", 2, "j-1", "j-2");
    pending(p, "j", "default", "2");

    SessionResult result = p.run(CONF, WaitingLineTest::enqueueOnly);

    String why = "blocked at probe: queue default: cpu requested 2, allocated 7 of capability 8";
    assertThat(result.pods().get("ns/j-1").condition().message()).isEqualTo(why);
    assertThat(result.pods().get("ns/j-2").condition().message()).isEqualTo(why);
    assertThat(result.events())
        .filteredOn(e -> e.kind().equals("Pod") && e.reason().equals("FailedScheduling"))
        .extracting(SessionResult.Event::object, SessionResult.Event::message)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("ns/j-1", why),
            org.assertj.core.groups.Tuple.tuple("ns/j-2", why));
  }

  @Test
  void gangHeldByQueueDeservedShare_itsPodsSayWhy_withTheNumbers() throws Exception {
    List<Blocker.Figure> figures = List.of(new Blocker.Figure("cpu", 0, 4, 4, "deserved"));
    SessionProbe p =
        new SessionProbe()
            .plugin(
                "a",
                (s, x) ->
                    x.add(
                        ExtensionPoint.OVERUSED,
                        q -> {
                          s.reportQueueBlocker(
                              q,
                              Blocker.of(
                                  Blocker.Stage.QUEUE_DESERVED,
                                  Blocker.describe(q.name(), figures)
                                      + " (allocated reached deserved)",
                                  figures));
                          return true;
                        }))
            .node("n1", "8")
            .job("j", 2, "j-1", "j-2");

    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);

    assertThat(waiting(result, "ns/j").blocker().stage()).isEqualTo(Blocker.Stage.QUEUE_DESERVED);
    assertThat(result.pods().get("ns/j-1").condition().message())
        .isEqualTo(
            "blocked at probe: queue default: cpu requested 0, allocated 4 of deserved 4"
                + " (allocated reached deserved)");
  }

  @Test
  void podNamingAMissingPodGroup_getsAWarning_andWaitsInTheAdminView() throws Exception {
    SessionProbe p = new SessionProbe().plugin("a", (s, x) -> {}).node("n1", "8");
    p.job("ghost", 1, "ghost-1");
    p.podGroups.removeIf(pg -> pg.metadata().name().equals("ghost"));

    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);

    SessionResult.Waiting w = waiting(result, "ns/ghost");
    assertThat(w.blocker().stage()).isEqualTo(Blocker.Stage.PODGROUP_MISSING);
    assertThat(w.queue()).isEqualTo("default");
    assertThat(w.position()).isZero();
    assertThat(w.blocker().message())
        .isEqualTo(
            "pod group ns/ghost does not exist: pod ns/ghost-1 names it in annotation"
                + " scheduling.k8s.io/group-name and is not scheduled until the pod group is"
                + " created");
    assertThat(result.events())
        .filteredOn(e -> e.object().equals("ns/ghost-1"))
        .extracting(e -> e.kind() + " " + e.type() + " " + e.reason())
        .containsExactly("Pod Warning " + SessionRunner.POD_GROUP_NOT_FOUND);
    assertThat(result.pods().get("ns/ghost-1").condition().message())
        .isEqualTo(w.blocker().message());
    assertThat(result.binds()).isEmpty();
  }

  @Test
  void missingQueue_itsPendingPodsGetTheReasonToo() throws Exception {
    SessionProbe p = new SessionProbe().plugin("a", (s, x) -> {}).node("n1", "8");
    p.job("lost", 1, "lost-1");
    pending(p, "lost", "nowhere", "1");

    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);

    assertThat(result.events())
        .filteredOn(e -> e.object().equals("ns/lost-1"))
        .extracting(e -> e.kind() + " " + e.reason() + ": " + e.message())
        .containsExactly(
            "Pod QueueNotFound: queue nowhere does not exist: pod group ns/lost is not scheduled");
    assertThat(result.pods().get("ns/lost-1").condition().reason()).isEqualTo("Unschedulable");
  }

  @Test
  void queueDeletedUnderRunningGroup_saysTheQueueIsGone_andLeavesRunningPodsAlone()
      throws Exception {
    SessionProbe p = new SessionProbe().plugin("a", (s, x) -> {}).node("n1", "8");
    p.job("lost", 2, "lost-1@n1", "lost-2@n1", "lost-3");
    pending(p, "lost", "nowhere", "1");

    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);

    String gone =
        "queue nowhere is gone (deleted while pod group ns/lost had pods running): its 2 pods on"
            + " nodes keep running untouched; its pending pods are not scheduled until the queue"
            + " exists again";
    assertThat(waiting(result, "ns/lost").blocker().message()).isEqualTo(gone);
    assertThat(result.events())
        .filteredOn(e -> e.reason().equals(SessionRunner.QUEUE_NOT_FOUND))
        .extracting(e -> e.kind() + " " + e.object() + ": " + e.message())
        .containsExactlyInAnyOrder("PodGroup ns/lost: " + gone, "Pod ns/lost-3: " + gone);
    assertThat(result.pods()).containsOnlyKeys("ns/lost-3");
    assertThat(result.evictions()).isEmpty();
    assertThat(result.binds()).isEmpty();
    assertThat(result.podGroups()).doesNotContainKey("ns/lost");
  }

  @Test
  void closedQueue_isAReasonAndAnEvent() throws Exception {
    SessionProbe p = new SessionProbe().plugin("a", (s, x) -> {}).node("n1", "8");
    p.queues.clear();
    p.queues.add(
        new Queue(
            ObjectMeta.named("", "default"),
            1,
            null,
            null,
            null,
            null,
            "",
            0,
            null,
            null,
            "Closed",
            null));
    p.job("j", 1, "j-1");
    pending(p, "j", "default", "1");
    SessionResult result = p.run(CONF, WaitingLineTest::enqueueOnly);
    assertThat(waiting(result, "ns/j").blocker().message())
        .isEqualTo("queue default is Closed: it admits no new pod group");
    assertThat(result.events())
        .anySatisfy(e -> assertThat(e.reason()).isEqualTo(SessionRunner.QUEUE_CLOSED));
  }

  @Test
  void noNodeFits_givesPerReasonNodeCountsAndTheLargestNode() throws Exception {
    SessionProbe p =
        new SessionProbe()
            .plugin("a", (s, x) -> {})
            .node("n1", "500m")
            .node("n2", "500m")
            .job("big", 1, "big-1");
    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);
    Blocker b = waiting(result, "ns/big").blocker();
    assertThat(b.stage()).isEqualTo(Blocker.Stage.NODES);
    assertThat(b.nodeCounts()).containsValue(2);
    assertThat(b.message()).contains("0/2 nodes are unavailable").contains("Insufficient cpu");
  }

  @Test
  void invalidJob_namesTheValidatingPlugin() throws Exception {
    SessionProbe p =
        new SessionProbe()
            .plugin(
                "a",
                (s, x) ->
                    x.add(
                        ExtensionPoint.JOB_VALID,
                        job ->
                            new ValidationResult(
                                false, "NotEnoughPods", "2 tasks of minMember 3 exist")))
            .node("n1", "8")
            .job("short", 3, "s-1", "s-2");
    Blocker b = waiting(p.run(CONF, WaitingLineTest::enqueueAndAllocate), "ns/short").blocker();
    assertThat(b.stage()).isEqualTo(Blocker.Stage.INVALID);
    assertThat(b.plugin()).isEqualTo("a");
    assertThat(b.message()).isEqualTo("2 tasks of minMember 3 exist");
  }

  @Test
  void aJobThatRuns_isNotWaiting() throws Exception {
    SessionProbe p =
        new SessionProbe().plugin("a", (s, x) -> {}).node("n1", "8").job("j", 1, "j-1");
    SessionResult result = p.run(CONF, WaitingLineTest::enqueueAndAllocate);
    assertThat(result.binds()).hasSize(1);
    assertThat(result.waiting()).isEmpty();
  }
}
