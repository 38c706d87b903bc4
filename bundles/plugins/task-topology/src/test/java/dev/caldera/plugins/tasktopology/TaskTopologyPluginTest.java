package dev.caldera.plugins.tasktopology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.extension.TaskOrderFn;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskTopologyPluginTest {

  private static final double EXACT = 1e-9;

  private final FakeSession session = new FakeSession();
  private TaskTopologyPlugin plugin;
  private RecordingExtensions extensions;

  /**
   * A TensorFlow-like job: ps-0, ps-1 (1 cpu, 1Gi) and w-0..w-3 (2 cpu, 2Gi); ps and worker attract
   * each other, ps repel each other.
   */
  private FakeJob tfJob(String uid) {
    FakeJob job =
        session
            .addJob(uid)
            .annotation(TaskTopology.AFFINITY, "ps,worker")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps");
    for (int i = 0; i < 2; i++) {
      job.task("ps-" + i).role("ps").requests("cpu", "1", "memory", "1Gi");
    }
    for (int i = 0; i < 4; i++) {
      job.task("w-" + i).role("worker").requests("cpu", "2", "memory", "2Gi");
    }
    return job;
  }

  private static FakeTask task(FakeJob job, String name) {
    for (FakeTask t : job.fakeTasks()) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    throw new AssertionError(name);
  }

  private FakeNode node(String name, String cpu, String memory) {
    return session.addNode(name).allocatable("pods", "110", "cpu", cpu, "memory", memory);
  }

  private void open(Map<String, Object> arguments) {
    plugin =
        (TaskTopologyPlugin)
            new TaskTopologyPluginFactory()
                .create(new PluginArguments("task-topology", arguments, false));
    extensions = RecordingExtensions.open(plugin, session);
  }

  private int compare(TaskInfo l, TaskInfo r) {
    TaskOrderFn fn = extensions.get(ExtensionPoint.TASK_ORDER);
    return fn.compare(l, r);
  }

  private double score(TaskInfo task, FakeNode node) {
    NodeOrderFn fn = extensions.get(ExtensionPoint.NODE_ORDER);
    return fn.score(task, node);
  }

  private void allocate(FakeTask task, FakeNode node) {
    task.status(TaskStatus.ALLOCATED).on(node);
    EventHandler handler = extensions.get(ExtensionPoint.EVENT_HANDLER);
    assertThat(handler.allocated(task).isSuccess()).isTrue();
  }

  private static List<String> names(Bucket bucket) {
    List<String> out = new ArrayList<>();
    bucket.tasks.values().forEach(t -> out.add(t.name()));
    return out;
  }

  // ---------------------------------------------------------------- arguments

  @Test
  void arguments_defaultWeightIsOne() {
    assertThat(TaskTopologyArguments.from(PluginArguments.empty("task-topology")).weight())
        .isEqualTo(1);
    assertThat(
            TaskTopologyArguments.from(
                    new PluginArguments("task-topology", Map.of("task-topology.weight", 10), false))
                .weight())
        .isEqualTo(10);
  }

  @Test
  void arguments_badWeight_namesTheKey() {
    for (Object bad : new Object[] {"ten", 1.5, true}) {
      assertThatThrownBy(
              () ->
                  new TaskTopologyPluginFactory()
                      .create(
                          new PluginArguments(
                              "task-topology", Map.of("task-topology.weight", bad), false)))
          .isInstanceOf(PluginArgumentException.class)
          .hasMessageContaining("task-topology.weight");
    }
  }

  // ---------------------------------------------------------------- buckets

  @Test
  void buckets_antiAffinitySplitsPsAndWorkersJoinTheLighterBucket() {
    FakeJob job = tfJob("ns/tf");
    open(Map.of());
    JobManager m = TaskTopologyPlugin.manager(job);

    // ps rank first (self anti-affinity 4 > inter-affinity 3); ps-1 repels ps-0; workers go to
    // the bucket with the lower request score on a tie of affinity.
    assertThat(m.buckets).hasSize(2);
    assertThat(names(m.buckets.get(0))).containsExactly("ps-0", "w-0", "w-2");
    assertThat(names(m.buckets.get(1))).containsExactly("ps-1", "w-1", "w-3");
    assertThat(m.bucketMaxSize).isEqualTo(3);
    assertThat(m.rolePriority).containsExactlyInAnyOrderEntriesOf(Map.of("ps", 4, "worker", 3));
    // 1 cpu + 1024 MiB + 1 pod and 2 cpu + 2048 MiB + 1 pod.
    assertThat(m.buckets.get(0).reqScore).isEqualTo(2025 + 2 * 4049);
  }

  @Test
  void buckets_taskOrderComesBeforeRolePriority() {
    FakeJob job = tfJob("ns/tf").annotation(TaskTopology.TASK_ORDER, "worker,ps");
    JobManager m = TaskTopologyPlugin.manager(job);

    // Workers first fill one bucket (neutral to each other), then both ps join it because the
    // workers' attraction outweighs their mutual repulsion.
    assertThat(m.buckets).hasSize(1);
    assertThat(names(m.buckets.get(0))).containsExactly("w-0", "w-1", "w-2", "w-3", "ps-0", "ps-1");
    assertThat(m.roleOrder).containsExactlyInAnyOrderEntriesOf(Map.of("worker", 2, "ps", 1));
  }

  @Test
  void buckets_placedTasksSeedOneBucketPerNode() {
    FakeNode n1 = node("n1", "8", "16Gi");
    FakeNode n2 = node("n2", "8", "16Gi");
    FakeJob job = tfJob("ns/tf");
    task(job, "w-3").status(TaskStatus.RUNNING).on(n2);
    task(job, "ps-0").status(TaskStatus.RUNNING).on(n1);
    JobManager m = TaskTopologyPlugin.manager(job);

    // Placed tasks first by node name: n1 gets bucket 0, n2 bucket 1. ps-1 repels bucket 0's ps
    // and likes bucket 1's worker. Then w-0 likes 0 and 1 equally and picks the lighter: bucket 0
    // (no pending request yet), and so on.
    Bucket b0 = m.buckets.get(0);
    Bucket b1 = m.buckets.get(1);
    assertThat(b0.nodes).isEqualTo(Map.of("n1", 1));
    assertThat(b1.nodes).isEqualTo(Map.of("n2", 1));
    assertThat(names(b1)).startsWith("ps-1");
    assertThat(b0.boundTasks + b0.tasks.size() + b1.boundTasks + b1.tasks.size()).isEqualTo(6);
    assertThat(m.bucketOf(task(job, "ps-0"))).isSameAs(b0);
  }

  @Test
  void buckets_roleFromALabelOnly_staysOutOfBuckets() {
    FakeJob job = session.addJob("ns/j").annotation(TaskTopology.AFFINITY, "ps");
    FakeTask annotated = job.task("a").role("ps");
    FakeTask labelled = job.task("b").label("volcano.sh/task-spec", "ps");
    JobManager m = TaskTopologyPlugin.manager(job);

    assertThat(m.bucketOf(annotated)).isNotNull();
    assertThat(m.bucketOf(labelled)).isNull();
  }

  @Test
  void manager_isOnlyBuiltForValidTopologiesWithPendingTasks() {
    FakeNode n1 = node("n1", "8", "16Gi");
    FakeJob none = session.addJob("ns/none");
    none.task("a").role("ps");
    FakeJob invalid = session.addJob("ns/invalid").annotation(TaskTopology.AFFINITY, "chief");
    invalid.task("a").role("ps");
    FakeJob running = session.addJob("ns/running").annotation(TaskTopology.AFFINITY, "ps");
    running.task("a").role("ps").status(TaskStatus.RUNNING).on(n1);

    assertThat(TaskTopologyPlugin.manager(none)).isNull();
    assertThat(TaskTopologyPlugin.manager(invalid)).isNull();
    assertThat(TaskTopologyPlugin.manager(running)).isNull();
  }

  @Test
  void taskOrderOnly_givesAManagerWithEveryTaskOutOfBucket() {
    FakeJob job = session.addJob("ns/j").annotation(TaskTopology.TASK_ORDER, "b,a");
    FakeTask a = job.task("a").role("a");
    FakeTask b = job.task("b").role("b");
    open(Map.of());

    assertThat(TaskTopologyPlugin.manager(job).buckets).isEmpty();
    assertThat(compare(a, b)).isZero();
  }

  // ---------------------------------------------------------------- task order

  @Test
  void taskOrder_withinABucket_higherPriorityRoleFirst() {
    FakeJob job = tfJob("ns/tf");
    open(Map.of());

    assertThat(compare(task(job, "ps-0"), task(job, "w-0"))).isEqualTo(-1);
    assertThat(compare(task(job, "w-2"), task(job, "ps-0"))).isEqualTo(1);
    assertThat(compare(task(job, "w-0"), task(job, "w-2"))).isZero();
  }

  @Test
  void taskOrder_olderBucketFirstAtEqualSize() {
    FakeJob job = tfJob("ns/tf");
    open(Map.of());

    assertThat(compare(task(job, "w-0"), task(job, "ps-1"))).isEqualTo(-1);
    assertThat(compare(task(job, "ps-1"), task(job, "w-0"))).isEqualTo(1);
  }

  @Test
  void taskOrder_biggerBucketFirst() {
    FakeNode n1 = node("n1", "8", "16Gi");
    FakeJob job = tfJob("ns/tf");
    open(Map.of());
    // Placing ps-0 leaves bucket 0 with two pending tasks against bucket 1's three.
    allocate(task(job, "ps-0"), n1);

    assertThat(compare(task(job, "w-0"), task(job, "w-1"))).isEqualTo(1);
    assertThat(compare(task(job, "ps-1"), task(job, "w-2"))).isEqualTo(-1);
  }

  @Test
  void taskOrder_bucketedBeforeUnbucketed_evenAcrossJobs() {
    FakeJob a = tfJob("ns/a");
    FakeTask aLoose = a.task("x").requests("cpu", "1");
    FakeJob b = tfJob("ns/b");
    FakeTask bLoose = b.task("x").requests("cpu", "1");
    FakeJob plain = session.addJob("ns/plain");
    FakeTask plainTask = plain.task("p").role("ps");
    open(Map.of());

    assertThat(compare(task(a, "ps-0"), aLoose)).isEqualTo(-1);
    assertThat(compare(bLoose, task(a, "w-3"))).isEqualTo(1);
    // Two bucketed tasks of different jobs, or two loose ones: not this plugin's call.
    assertThat(compare(task(a, "ps-0"), task(b, "w-3"))).isZero();
    assertThat(compare(aLoose, bLoose)).isZero();
    // A job without a topology: no opinion at all.
    assertThat(compare(task(a, "ps-0"), plainTask)).isZero();
  }

  @Test
  void taskOrder_doc_exampleOrder() {
    // Volcano's TaskOrderFn comment: A = | a1 a3 | a2 | a4 |, B = | b1 b2 | b3 |.
    FakeJob a = session.addJob("ns/a").annotation(TaskTopology.ANTI_AFFINITY, "x");
    a.task("a1").role("x").requests("cpu", "1");
    a.task("a2").role("x").requests("cpu", "1");
    a.task("a4").requests("cpu", "1");
    open(Map.of());

    // Self anti-affinity puts a1 and a2 in separate buckets; a4 has no role.
    assertThat(compare(task(a, "a1"), task(a, "a2"))).isEqualTo(-1);
    assertThat(compare(task(a, "a2"), task(a, "a4"))).isEqualTo(-1);
  }

  // ---------------------------------------------------------------- node order

  @Test
  void score_wholeBucketFits_scoresItsPendingTasks() {
    FakeNode big = node("big", "8", "16Gi");
    FakeJob job = tfJob("ns/tf");
    open(Map.of());

    // 3 pending tasks · 100 / bucketMaxSize 3.
    assertThat(score(task(job, "ps-0"), big)).isCloseTo(100, within(EXACT));
  }

  @Test
  void score_bucketTooBig_dropsOtherTasksInJoiningOrderUntilItFits() {
    FakeNode small = node("small", "2", "2Gi");
    FakeJob job = tfJob("ns/tf");
    open(Map.of());

    // Bucket 0 asks 5 cpu: leaving out w-0 (3 cpu left) and w-2 (1 cpu) makes it fit: 3 − 2.
    assertThat(score(task(job, "ps-0"), small)).isCloseTo(100.0 / 3, within(EXACT));
  }

  @Test
  void score_taskAloneDoesNotFit_isZero() {
    FakeNode tiny = node("tiny", "500m", "8Gi");
    FakeJob job = tfJob("ns/tf");
    open(Map.of());

    assertThat(score(task(job, "ps-0"), tiny)).isZero();
  }

  @Test
  void score_weightMultiplies() {
    FakeNode big = node("big", "8", "16Gi");
    FakeJob job = tfJob("ns/tf");
    open(Map.of("task-topology.weight", 3));

    assertThat(score(task(job, "ps-0"), big)).isCloseTo(300, within(EXACT));
  }

  @Test
  void score_afterAllocation_countsPlacedTasksAndRepulsion() {
    FakeNode n1 = node("n1", "8", "16Gi");
    FakeNode n2 = node("n2", "2", "2Gi");
    FakeJob job = tfJob("ns/tf");
    open(Map.of());
    allocate(task(job, "ps-0"), n1);

    // w-0 (bucket 0): 1 placed on n1 + 2 pending, bucket (4 cpu) fits the 7 idle cpu.
    assertThat(score(task(job, "w-0"), n1)).isCloseTo(100, within(EXACT));
    // On n2: 0 placed + 2 pending, w-2 left out so that w-0 fits.
    assertThat(score(task(job, "w-0"), n2)).isCloseTo(100.0 / 3, within(EXACT));
    // ps-1 (bucket 1): ps-0 on n1 repels it: −1 + 3 pending.
    assertThat(score(task(job, "ps-1"), n1)).isCloseTo(200.0 / 3, within(EXACT));
    // A job without a topology, or a task outside any bucket, scores 0.
    FakeTask loose = job.task("loose").requests("cpu", "1");
    assertThat(score(loose, n1)).isZero();
  }

  @Test
  void bound_movesTheTaskFromPendingToItsNode() {
    // Volcano's TestJobManager_TaskUnbound_IsInverseOfTaskBound, bind half.
    FakeNode nodeA = node("node-a", "8", "16Gi");
    FakeJob job = session.addJob("ns/j").annotation(TaskTopology.AFFINITY, "ps");
    FakeTask t = job.task("u1").role("ps").requests("cpu", "1", "memory", "1Gi");
    open(Map.of());
    JobManager m = TaskTopologyPlugin.manager(job);
    Bucket b = m.buckets.get(0);
    assertThat(b.tasks).containsKey(t.uid());

    t.status(TaskStatus.ALLOCATED).on(nodeA);
    m.bound(t);

    assertThat(b.boundTasks).isEqualTo(1);
    assertThat(b.nodes).isEqualTo(Map.of("node-a", 1));
    assertThat(b.tasks).doesNotContainKey(t.uid());
    assertThat(b.request.milliCpu()).isZero();
    assertThat(b.reqScore).isZero();
    assertThat(m.nodeRoles).isEqualTo(Map.of("node-a", Map.of("ps", 1)));
  }

  @Test
  void open_registersTaskOrderNodeOrderAndAllocateHandler() {
    open(Map.of());
    assertThat(extensions.points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.TASK_ORDER, ExtensionPoint.NODE_ORDER, ExtensionPoint.EVENT_HANDLER);
  }
}
