package dev.caldera.plugins.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tree: annotations, implicit queues, deserved by weight, broken links and warnings. */
class QueueTreeTest {

  private FakeSession session = newSession();
  private final QueueReports reports = new QueueReports();
  private CapacityPlugin plugin = newPlugin();

  private static FakeSession newSession() {
    FakeSession s = new FakeSession();
    s.addNode("n1").allocatable("pods", "110", "cpu", "200", "memory", "800Gi");
    return s;
  }

  private CapacityPlugin newPlugin() {
    return new CapacityPlugin(new CapacityArguments(0, true, false, true), reports);
  }

  private RecordingExtensions open() {
    return RecordingExtensions.open(plugin, session);
  }

  private double deservedCpu(String queue) {
    return plugin.attr(queue).deserved.milliCpu();
  }

  private FakeTask pendingIn(String queue) {
    FakeJob job = session.addJob("ns/job-" + queue).queue(queue).phase(PodGroupPhase.Inqueue);
    return job.task("p").requests("cpu", "1");
  }

  private List<RecordedEvent> queueWarnings() {
    return session.events().stream().filter(e -> e.kind().equals("Queue")).toList();
  }

  // ------------------------------------------------------------ deserved by weight

  @Test
  void deserved_followsAnnotationWeightsDownTheTree() {
    session.addQueue("root-eng").hierarchy("root/eng", "1/6");
    session.addQueue("root-biz").hierarchy("root/biz", "1/4");
    session.addQueue("root-eng-prod").hierarchy("root/eng/prod", "1/6/8");
    session.addQueue("root-eng-dev").hierarchy("root/eng/dev", "1/6/2");
    open();

    assertThat(deservedCpu("root")).isEqualTo(200_000);
    assertThat(deservedCpu("root-eng")).isEqualTo(120_000);
    assertThat(deservedCpu("root-biz")).isEqualTo(80_000);
    assertThat(deservedCpu("root-eng-prod")).isEqualTo(96_000);
    assertThat(deservedCpu("root-eng-dev")).isEqualTo(24_000);
    assertThat(plugin.attr("root-eng-dev").parent.name).isEqualTo("root-eng");
    // pods is never split into a deserved
    assertThat(plugin.attr("root-eng-prod").deserved.has("pods")).isFalse();
  }

  @Test
  void deserved_aMissingLevelOfAPathIsAnImplicitQueueWithTheAnnotatedWeight() {
    session.addQueue("prod").hierarchy("root/eng/prod", "1/6/8");
    session.addQueue("dev").hierarchy("root/eng/dev", "1/6/2");
    session.addQueue("biz").hierarchy("root/biz", "1/4");
    open();

    QueueAttr eng = plugin.attr("root/eng");
    assertThat(eng.queue).isNull();
    assertThat(eng.weight).isEqualTo(6);
    assertThat(eng.children).extracting(a -> a.name).containsExactly("dev", "prod");
    assertThat(deservedCpu("root/eng")).isEqualTo(120_000);
    assertThat(deservedCpu("prod")).isEqualTo(96_000);
    assertThat(deservedCpu("dev")).isEqualTo(24_000);
  }

  @Test
  void deserved_bySpecWeightUnderSpecParents() {
    session.addQueue("root");
    session.addQueue("eng").weight(6);
    session.addQueue("biz").weight(4);
    session.addQueue("prod").parent("eng").weight(8);
    session.addQueue("dev").parent("eng").weight(2);
    open();

    assertThat(deservedCpu("eng")).isEqualTo(120_000);
    assertThat(deservedCpu("biz")).isEqualTo(80_000);
    assertThat(deservedCpu("prod")).isEqualTo(96_000);
    assertThat(deservedCpu("dev")).isEqualTo(24_000);
  }

  @Test
  void deserved_derivedSharesWhatExplicitSiblingsLeaveAndStaysWithinCapability() {
    session.addQueue("root");
    session.addQueue("fixed").deserved("cpu", "100", "memory", "100Gi");
    session.addQueue("capped").weight(3).capability("cpu", "30");
    session.addQueue("open").weight(1);
    open();

    // 200 − 100 = 100 left, split 3 : 1 = 75 / 25, then capped to 30
    assertThat(deservedCpu("capped")).isEqualTo(30_000);
    assertThat(deservedCpu("open")).isEqualTo(25_000);
    assertThat(plugin.attr("open").deserved.memory()).isEqualTo(700.0 / 4 * (1L << 30));
  }

  @Test
  void deserved_derivedIsAtLeastTheGuarantee() {
    session.addQueue("root");
    session.addQueue("a").weight(1).guarantee("cpu", "150");
    session.addQueue("b").weight(1);
    open();

    assertThat(deservedCpu("a")).isEqualTo(150_000);
    assertThat(deservedCpu("b")).isEqualTo(100_000);
  }

  // ------------------------------------------------------------ broken trees

  @Test
  void cycle_isReportedOnItsQueuesWhichAreLeftOutWhileTheRestSchedules() {
    session.addQueue("root");
    session.addQueue("a").parent("b");
    session.addQueue("b").parent("a");
    session.addQueue("below").parent("a");
    session.addQueue("fine");
    FakeTask inCycle = pendingIn("a");
    FakeTask inFine = pendingIn("fine");
    AllocatableFn allocatable = open().get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(session.queue("a"), inCycle)).isFalse();
    assertThat(allocatable.test(session.queue("fine"), inFine)).isTrue();
    assertThat(plugin.attr("a").excluded).isTrue();
    assertThat(plugin.attr("below").excluded).isTrue();
    assertThat(plugin.attr("root").children).extracting(q -> q.name).containsExactly("fine");
    assertThat(queueWarnings())
        .extracting(RecordedEvent::key, RecordedEvent::reason)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("a", "QueueHierarchyCycle"),
            org.assertj.core.groups.Tuple.tuple("b", "QueueHierarchyCycle"),
            org.assertj.core.groups.Tuple.tuple("below", "ParentQueueLeftOut"));
    assertThat(session.events())
        .anySatisfy(
            e -> {
              assertThat(e.key()).isEqualTo("ns/job-a");
              assertThat(e.message()).contains("a -> b -> a");
            });
  }

  @Test
  void missingParent_isReportedAndLeftOut() {
    session.addQueue("root");
    session.addQueue("orphan").parent("gone");
    open();

    assertThat(plugin.attr("orphan").excluded).isTrue();
    assertThat(queueWarnings())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.reason()).isEqualTo("ParentQueueNotFound");
              assertThat(e.message()).contains("gone");
            });
  }

  @Test
  void duplicatePath_leavesOutTheLaterQueue() {
    session.addQueue("a").hierarchy("root/x", "1/1");
    session.addQueue("b").hierarchy("root/x", "1/1");
    open();

    assertThat(plugin.attr("a").excluded).isFalse();
    assertThat(plugin.attr("b").excluded).isTrue();
    assertThat(queueWarnings())
        .extracting(RecordedEvent::reason)
        .containsExactly("DuplicateQueuePath");
  }

  @Test
  void specParentMayNameAnAnnotatedQueue() {
    session.addQueue("eng").hierarchy("root/eng", "1/1");
    session.addQueue("dev").parent("eng");
    open();

    assertThat(plugin.attr("dev").ancestors).extracting(a -> a.name).containsExactly("root", "eng");
  }

  @Test
  void conflictingWeightsForOneImplicitLevel_areWarnedNamingBothQueues() {
    // seed 003's `kubectl annotate` changes one queue's weight for the shared parent root/eng
    session.addQueue("prod").hierarchy("root/eng/prod", "1/6/8");
    session.addQueue("dev").hierarchy("root/eng/dev", "1/3/2");
    open();

    assertThat(plugin.attr("root/eng").weight).isEqualTo(3);
    assertThat(queueWarnings())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.key()).isEqualTo("prod");
              assertThat(e.message())
                  .isEqualTo(
                      "annotation volcano.sh/hierarchy-weights of queue prod gives root/eng the"
                          + " weight 6, but queue dev's gives it 3; dev's (first by name) is"
                          + " used");
            });
  }

  @Test
  void agreeingWeightsForOneImplicitLevel_areNotWarned() {
    session.addQueue("prod").hierarchy("root/eng/prod", "1/6/8");
    session.addQueue("dev").hierarchy("root/eng/dev", "1/6/2");
    open();
    assertThat(queueWarnings()).isEmpty();
  }

  @Test
  void aPathWithoutRoot_isWarnedAndReadBelowRoot() {
    session.addQueue("prod").hierarchy("eng/prod", "1/6/8");
    open();

    assertThat(plugin.attr("prod").parent.name).isEqualTo("root/eng");
    assertThat(queueWarnings())
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.message())
                    .isEqualTo(
                        "annotation volcano.sh/hierarchy of queue prod is \"eng/prod\", which"
                            + " does not start with root/; it is read as root/eng/prod (Volcano"
                            + " would read its first level as the root)"));
  }

  // ------------------------------------------------------------ warnings once per change

  @Test
  void inconsistencies_areWarnedOncePerChangeAcrossSessions() {
    session.addQueue("root");
    session.addQueue("team").capability("cpu", "10").deserved("cpu", "5");
    session.addQueue("leaf").parent("team").capability("cpu", "20").deserved("cpu", "8");
    open();
    assertThat(queueWarnings())
        .extracting(RecordedEvent::key, RecordedEvent::reason)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("leaf", "InconsistentQueueHierarchy"),
            org.assertj.core.groups.Tuple.tuple("team", "InconsistentQueueHierarchy"));
    assertThat(queueWarnings())
        .filteredOn(e -> e.key().equals("leaf"))
        .singleElement()
        .extracting(RecordedEvent::message)
        .asString()
        .contains("cpu 20")
        .contains("cpu 10");

    // the same tree in the next session: nothing new to say
    session = newSession();
    session.addQueue("root");
    session.addQueue("team").capability("cpu", "10").deserved("cpu", "5");
    session.addQueue("leaf").parent("team").capability("cpu", "20").deserved("cpu", "8");
    plugin = newPlugin();
    open();
    assertThat(queueWarnings()).isEmpty();

    // the leaf's capability changes: reported again, the unchanged deserved warning is not
    session = newSession();
    session.addQueue("root");
    session.addQueue("team").capability("cpu", "10").deserved("cpu", "5");
    session.addQueue("leaf").parent("team").capability("cpu", "30").deserved("cpu", "8");
    plugin = newPlugin();
    open();
    assertThat(queueWarnings())
        .singleElement()
        .satisfies(e -> assertThat(e.message()).contains("cpu 30"));
  }

  @Test
  void guaranteesAboveTheParentsOwn_areWarned() {
    session.addQueue("root");
    session.addQueue("team").guarantee("cpu", "10");
    session.addQueue("a").parent("team").guarantee("cpu", "8");
    session.addQueue("b").parent("team").guarantee("cpu", "8");
    open();

    assertThat(queueWarnings())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.key()).isEqualTo("team");
              assertThat(e.message()).contains("guarantees").contains("cpu 16");
            });
    assertThat(plugin.attr("team").guarantee.milliCpu()).isEqualTo(16_000);
  }
}
