package dev.caldera.plugins.drf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrfPluginTest {

  private final FakeSession session = new FakeSession();

  private RecordingExtensions open(boolean hierarchy) {
    return RecordingExtensions.open(new DrfPlugin(new DrfArguments(hierarchy)), session);
  }

  private static FakeTask running(FakeJob job, String name, FakeNode node, String... requests) {
    return job.task(name).requests(requests).status(TaskStatus.RUNNING).on(node);
  }

  @Test
  void registersPreemptableJobOrderAndEventHandlerWithoutHierarchy() {
    assertThat(open(false).points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.PREEMPTABLE, ExtensionPoint.JOB_ORDER, ExtensionPoint.EVENT_HANDLER);
  }

  @Test
  void registersQueueOrderAndReclaimableWithHierarchy() {
    assertThat(open(true).points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.PREEMPTABLE,
            ExtensionPoint.JOB_ORDER,
            ExtensionPoint.EVENT_HANDLER,
            ExtensionPoint.QUEUE_ORDER,
            ExtensionPoint.RECLAIMABLE);
  }

  @Test
  void factory_readsEnableHierarchyAndIgnoresUnknownKeys() {
    var factory = new DrfPluginFactory();
    var flat = factory.create(new PluginArguments("drf", Map.of("whatever", 3), false));
    var hier = factory.create(new PluginArguments("drf", Map.of(), true));

    assertThat(factory.name()).isEqualTo("drf");
    assertThat(RecordingExtensions.open(flat, session).has(ExtensionPoint.RECLAIMABLE)).isFalse();
    assertThat(RecordingExtensions.open(hier, session).has(ExtensionPoint.RECLAIMABLE)).isTrue();
  }

  @Test
  void share_isDominantOverEveryDimensionIncludingPods() {
    FakeNode n = session.addNode("n1").allocatable("cpu", "10", "memory", "10Gi", "pods", "10");
    FakeJob cpuHeavy = session.addJob("ns/cpu");
    running(cpuHeavy, "a", n, "cpu", "1");
    FakeJob podHeavy = session.addJob("ns/pods");
    running(podHeavy, "a", n, "cpu", "100m");
    running(podHeavy, "b", n, "cpu", "100m");
    DrfPlugin plugin = new DrfPlugin(new DrfArguments(false));
    JobOrderFn order = RecordingExtensions.open(plugin, session).get(ExtensionPoint.JOB_ORDER);

    assertThat(plugin.share("ns/cpu")).isEqualTo(0.1);
    assertThat(plugin.share("ns/pods")).isEqualTo(0.2);
    assertThat(order.compare(cpuHeavy, podHeavy)).isNegative();
    assertThat(order.compare(podHeavy, cpuHeavy)).isPositive();
  }

  @Test
  void jobOrder_comparesSharesExactly() {
    FakeNode n = session.addNode("n1").allocatable("memory", "10G", "pods", "1000");
    FakeJob a = session.addJob("ns/a");
    running(a, "a", n, "memory", "5G");
    FakeJob b = session.addJob("ns/b");
    running(b, "b", n, "memory", "5000000001");
    FakeJob c = session.addJob("ns/c");
    running(c, "c", n, "memory", "5G");
    JobOrderFn order = open(false).get(ExtensionPoint.JOB_ORDER);

    assertThat(order.compare(a, b)).isNegative();
    assertThat(order.compare(a, c)).isZero();
  }

  @Test
  void preemptable_toleratesShareDifferencesUpTo1e6AndKeepsRunningAllocation() {
    FakeNode n = session.addNode("n1").allocatable("memory", "10G", "pods", "1000");
    FakeTask preemptor = session.addJob("ns/p").task("p").requests("memory", "5000000001");
    FakeJob victimJob = session.addJob("ns/v");
    FakeTask v1 = running(victimJob, "v1", n, "memory", "5G");
    FakeTask v2 = running(victimJob, "v2", n, "memory", "5G");
    FakeTask small = running(session.addJob("ns/s"), "s1", n, "memory", "4G");
    FakeTask orphan = new FakeTask("ns/o").jobId("ns/gone").requests("memory", "9G");

    Victims victims =
        open(false)
            .get(ExtensionPoint.PREEMPTABLE)
            .select(preemptor, List.of(orphan, v1, small, v2));

    // v1: 0.5000000001 vs 0.5 is within 1e-6; v2 then leaves the job at 0; small leaves 0.
    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(v1);
  }

  @Test
  void preemptable_refusesWhenTheVictimsShareWouldDropMoreThanTheTolerance() {
    FakeNode n = session.addNode("n1").allocatable("memory", "10G", "pods", "1000");
    FakeTask preemptor = session.addJob("ns/p").task("p").requests("memory", "5000100000");
    FakeJob victimJob = session.addJob("ns/v");
    FakeTask v1 = running(victimJob, "v1", n, "memory", "5G");
    running(victimJob, "v2", n, "memory", "5G");

    Victims victims = open(false).get(ExtensionPoint.PREEMPTABLE).select(preemptor, List.of(v1));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).isEmpty();
  }

  @Test
  void preemptable_permitsNothingForAPreemptorWithoutJob() {
    FakeNode n = session.addNode("n1").allocatable("cpu", "4", "pods", "10");
    FakeTask victim = running(session.addJob("ns/v"), "v", n, "cpu", "2");

    Victims victims =
        open(false)
            .get(ExtensionPoint.PREEMPTABLE)
            .select(new FakeTask("ns/x").jobId("ns/gone"), List.of(victim));

    assertThat(victims.tasks()).isEmpty();
    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
  }

  @Test
  void eventHandler_movesSharesWithAllocations() {
    FakeNode n = session.addNode("n1").allocatable("cpu", "10", "pods", "1000");
    FakeJob a = session.addJob("ns/a");
    running(a, "a1", n, "cpu", "2");
    FakeTask a2 = a.task("a2").requests("cpu", "3");
    FakeJob b = session.addJob("ns/b");
    running(b, "b1", n, "cpu", "4");
    DrfPlugin plugin = new DrfPlugin(new DrfArguments(false));
    RecordingExtensions ext = RecordingExtensions.open(plugin, session);
    EventHandler handler = ext.get(ExtensionPoint.EVENT_HANDLER);
    JobOrderFn order = ext.get(ExtensionPoint.JOB_ORDER);
    assertThat(order.compare(a, b)).isNegative();

    assertThat(handler.allocated(a2.status(TaskStatus.ALLOCATED)).isSuccess()).isTrue();
    assertThat(plugin.share("ns/a")).isEqualTo(0.5);
    assertThat(order.compare(a, b)).isPositive();

    handler.deallocated(a2);
    assertThat(plugin.share("ns/a")).isEqualTo(0.2);
  }

  // ------------------------------------------------------------ hierarchical DRF

  private FakeNode hierarchyNode() {
    return session.addNode("n1").allocatable("cpu", "10", "memory", "10Gi", "pods", "10000");
  }

  @Test
  void hierarchicalQueueOrder_comparesShareOverWeightAtTheFirstDifferingLevel() {
    FakeNode n = hierarchyNode();
    FakeQueue qa = queue("qa", "root/a", "1/1");
    FakeQueue qb = queue("qb", "root/b", "1/1");
    FakeJob ja = session.addJob("ns/ja").queue("qa");
    for (int i = 0; i < 6; i++) {
      running(ja, "a" + i, n, "cpu", "1");
    }
    ja.task("pending").requests("cpu", "4");
    FakeJob jb = session.addJob("ns/jb").queue("qb");
    running(jb, "b0", n, "cpu", "2");
    jb.task("pending").requests("cpu", "8");
    var order = open(true).get(ExtensionPoint.QUEUE_ORDER);

    assertThat(order.compare(qb, qa)).isEqualTo(-1);
    assertThat(order.compare(qa, qb)).isEqualTo(1);
  }

  @Test
  void hierarchicalQueueOrder_dividesShareByWeight() {
    FakeNode n = hierarchyNode();
    FakeQueue qa = queue("qa", "root/a", "1/4");
    FakeQueue qb = queue("qb", "root/b", "1/1");
    FakeJob ja = session.addJob("ns/ja").queue("qa");
    running(ja, "a0", n, "cpu", "6");
    ja.task("pending").requests("cpu", "4");
    FakeJob jb = session.addJob("ns/jb").queue("qb");
    running(jb, "b0", n, "cpu", "2");
    jb.task("pending").requests("cpu", "8");

    // 0.6 / 4 < 0.2 / 1
    assertThat(open(true).get(ExtensionPoint.QUEUE_ORDER).compare(qa, qb)).isEqualTo(-1);
  }

  @Test
  void hierarchicalQueueOrder_putsSaturatedQueuesLast() {
    FakeNode n = hierarchyNode();
    FakeQueue qa = queue("qa", "root/a", "1/1");
    FakeQueue qb = queue("qb", "root/b", "1/1");
    running(session.addJob("ns/ja").queue("qa"), "a0", n, "cpu", "1");
    FakeJob jb = session.addJob("ns/jb").queue("qb");
    running(jb, "b0", n, "cpu", "6");
    jb.task("pending").requests("cpu", "4");

    // ja got all it asked for (saturated), so qa goes after qb despite its lower share.
    assertThat(open(true).get(ExtensionPoint.QUEUE_ORDER).compare(qa, qb)).isEqualTo(1);
  }

  @Test
  void hierarchicalQueueOrder_queuesWithoutAnnotationCompareEqual() {
    FakeNode n = hierarchyNode();
    var qa = session.addQueue("qa");
    var qb = session.addQueue("qb");
    running(session.addJob("ns/ja").queue("qa"), "a0", n, "cpu", "6");
    running(session.addJob("ns/jb").queue("qb"), "b0", n, "cpu", "1");

    assertThat(open(true).get(ExtensionPoint.QUEUE_ORDER).compare(qa, qb)).isZero();
  }

  @Test
  void hierarchicalReclaimable_takesVictimsWhoseQueueStaysAheadOfTheReclaimer() {
    FakeNode n = hierarchyNode();
    queue("qa", "root/a", "1/1");
    queue("qb", "root/b", "1/1");
    queue("qc", "root/c", "1/1");
    FakeJob ja = session.addJob("ns/ja").queue("qa");
    FakeTask a0 = running(ja, "a0", n, "cpu", "1");
    FakeTask a1 = running(ja, "a1", n, "cpu", "1");
    for (int i = 2; i < 6; i++) {
      running(ja, "a" + i, n, "cpu", "1");
    }
    ja.task("pending").requests("cpu", "4");
    FakeJob jb = session.addJob("ns/jb").queue("qb");
    running(jb, "b0", n, "cpu", "2");
    FakeTask reclaimer = jb.task("b1").requests("cpu", "1");
    jb.task("b2").requests("cpu", "7");
    FakeJob jc = session.addJob("ns/jc").queue("qc");
    FakeTask c0 = running(jc, "c0", n, "cpu", "1");
    jc.task("pending").requests("cpu", "1");

    Victims victims =
        open(true).get(ExtensionPoint.RECLAIMABLE).select(reclaimer, List.of(a0, c0, a1));

    // qb at 0.3 stays ahead of qa at 0.5 after either of a0/a1 goes; not of qc at 0.
    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(a0, a1);
  }

  @Test
  void hierarchicalEventHandler_updatesTheTree() {
    FakeNode n = hierarchyNode();
    FakeQueue qa = queue("qa", "root/a", "1/1");
    FakeQueue qb = queue("qb", "root/b", "1/1");
    FakeJob ja = session.addJob("ns/ja").queue("qa");
    running(ja, "a0", n, "cpu", "2");
    FakeTask more = ja.task("a1").requests("cpu", "3");
    ja.task("a2").requests("cpu", "3");
    FakeJob jb = session.addJob("ns/jb").queue("qb");
    running(jb, "b0", n, "cpu", "3");
    jb.task("b1").requests("cpu", "3");
    RecordingExtensions ext = open(true);
    var order = ext.get(ExtensionPoint.QUEUE_ORDER);
    assertThat(order.compare(qa, qb)).isEqualTo(-1);

    ext.get(ExtensionPoint.EVENT_HANDLER).allocated(more.status(TaskStatus.ALLOCATED));

    assertThat(order.compare(qa, qb)).isEqualTo(1);
  }

  private FakeQueue queue(String name, String path, String weights) {
    return session.addQueue(name).hierarchy(path, weights);
  }
}
