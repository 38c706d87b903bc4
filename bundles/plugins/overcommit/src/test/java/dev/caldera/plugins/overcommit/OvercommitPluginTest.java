package dev.caldera.plugins.overcommit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.JobEnqueuedFn;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OvercommitPluginTest {

  private static final double GI = 1024.0 * 1024 * 1024;

  private final FakeSession session = new FakeSession();
  private final FakeNode node =
      session.addNode("n1").allocatable("cpu", "10", "memory", "40Gi", "pods", "110");

  private static OvercommitPlugin plugin(Object factor) {
    Map<String, Object> values = new HashMap<>();
    if (factor != null) {
      values.put("overcommit-factor", factor);
    }
    return (OvercommitPlugin)
        new OvercommitPluginFactory().create(new PluginArguments("overcommit", values, false));
  }

  private OvercommitPlugin open(Object factor) {
    OvercommitPlugin p = plugin(factor);
    RecordingExtensions.open(p, session);
    return p;
  }

  /** A Running job using {@code cpu} on the node. */
  private FakeJob busy(String uid, String cpu) {
    FakeJob job = session.addJob(uid).phase(PodGroupPhase.Running);
    job.task(job.name() + "-0")
        .requests("cpu", cpu, "memory", "1Gi")
        .status(TaskStatus.RUNNING)
        .on(node);
    return job;
  }

  // ------------------------------------------------------------ arguments

  @Test
  void factory_isNamedOvercommit() {
    assertThat(new OvercommitPluginFactory().name()).isEqualTo("overcommit");
    assertThat(plugin(null).name()).isEqualTo("overcommit");
  }

  @Test
  void arguments_defaultTo1point2() {
    assertThat(OvercommitArguments.from(PluginArguments.empty("overcommit")).factor())
        .isEqualTo(1.2);
  }

  @Test
  void arguments_acceptNumbersFromOne() {
    assertThat(from(1.0).factor()).isEqualTo(1.0);
    assertThat(from(2).factor()).isEqualTo(2.0);
    assertThat(from("1.5").factor()).isEqualTo(1.5);
  }

  private static OvercommitArguments from(Object factor) {
    return OvercommitArguments.from(
        new PluginArguments("overcommit", Map.of("overcommit-factor", factor), false));
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.99, 0.5, 0, -1.2, Double.NaN, Double.POSITIVE_INFINITY})
  void arguments_refuseFactorsBelowOne(double factor) {
    assertThatThrownBy(() -> plugin(factor))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("plugin overcommit: argument overcommit-factor is ")
        .hasMessageContaining("expected a finite number of at least 1.0")
        .extracting(e -> ((PluginArgumentException) e).key())
        .isEqualTo("overcommit-factor");
  }

  @Test
  void arguments_refuseNonNumbers() {
    assertThatThrownBy(() -> plugin("lots"))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("argument overcommit-factor is \"lots\", expected a number");
    assertThatThrownBy(() -> plugin(true)).isInstanceOf(PluginArgumentException.class);
    assertThatThrownBy(() -> plugin("0.8"))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("at least 1.0");
  }

  // ------------------------------------------------------------ formulas

  @Test
  void registersEnqueueableAndEnqueued() {
    assertThat(RecordingExtensions.open(plugin(null), session).points())
        .containsExactlyInAnyOrder(ExtensionPoint.JOB_ENQUEUEABLE, ExtensionPoint.JOB_ENQUEUED);
  }

  @Test
  void idle_isTotalTimesFactorMinusUsed() {
    busy("ns/busy", "4");
    session.addNode("n2").allocatable("cpu", "2", "memory", "8Gi", "pods", "10");

    OvercommitPlugin p = open(1.5);

    assertThat(p.idle().milliCpu()).isEqualTo(12_000 * 1.5 - 4_000);
    assertThat(p.idle().memory()).isEqualTo(48 * GI * 1.5 - GI);
  }

  @Test
  void idle_mayGoNegative() {
    busy("ns/busy", "10");
    node.allocatable("cpu", "5", "memory", "40Gi", "pods", "110");

    assertThat(open(1.0).idle().milliCpu()).isEqualTo(-5_000);
  }

  @Test
  void inqueue_countsInqueueMinimumsAndTheUnallocatedPartOfRunningOnes() {
    // Inqueue: the whole minimum, even what is already allocated
    FakeJob inqueue =
        session.addJob("ns/inq").phase(PodGroupPhase.Inqueue).minResources("cpu", "3");
    inqueue.task("inq-0").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    // Running with minMember allocated: min 5 − allocated 2
    FakeJob running = session.addJob("ns/run").phase(PodGroupPhase.Running).minMember(1);
    running.minResources("cpu", "5");
    running.task("run-0").requests("cpu", "2").status(TaskStatus.RUNNING).on(node);
    // Running below minMember: nothing
    FakeJob short_ = session.addJob("ns/short").phase(PodGroupPhase.Running).minMember(2);
    short_.minResources("cpu", "7");
    short_.task("short-0").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    short_.task("short-1").requests("cpu", "1").status(TaskStatus.SUCCEEDED).on(node);
    // Pending, and Inqueue without minResources: nothing
    session.addJob("ns/pending").minResources("cpu", "11");
    session.addJob("ns/besteffort").phase(PodGroupPhase.Inqueue);

    assertThat(open(null).inqueue().milliCpu()).isEqualTo(3_000 + 3_000);
  }

  @Test
  void inqueue_deductsSchedulingGatedTasks() {
    FakeJob job = session.addJob("ns/g").phase(PodGroupPhase.Inqueue).minResources("cpu", "4");
    job.task("g-0").requests("cpu", "1").schedulingGate("example.com/gate");

    assertThat(open(null).inqueue().milliCpu()).isEqualTo(3_000);
  }

  @Test
  void enqueueable_admitsWhileInqueuePlusMinimumFitsIdle() {
    busy("ns/busy", "4"); // idle = 10 × 1.5 − 4 = 11 cpu
    FakeJob a = session.addJob("ns/a").minResources("cpu", "6", "memory", "6Gi");
    FakeJob b = session.addJob("ns/b").minResources("cpu", "4", "memory", "4Gi");
    FakeJob c = session.addJob("ns/c").minResources("cpu", "1500m", "memory", "1Gi");
    RecordingExtensions ext = RecordingExtensions.open(plugin(1.5), session);
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);
    JobEnqueuedFn enqueued = ext.get(ExtensionPoint.JOB_ENQUEUED);

    assertThat(enqueueable.vote(a)).isEqualTo(Vote.PERMIT);
    enqueued.enqueued(a);
    assertThat(enqueueable.vote(b)).isEqualTo(Vote.PERMIT);
    enqueued.enqueued(b);
    assertThat(enqueueable.vote(c)).isEqualTo(Vote.REJECT);

    assertThat(session.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "ns/c",
                "Normal",
                "Unschedulable",
                "resource in cluster is overused: overused cpu"));
  }

  @Test
  void enqueueable_isExactAtTheLimit() {
    FakeJob exact = session.addJob("ns/exact").minResources("cpu", "12");
    FakeJob over = session.addJob("ns/over").minResources("cpu", "12001m");
    JobEnqueueableFn fn =
        RecordingExtensions.open(plugin(null), session).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(fn.vote(exact)).isEqualTo(Vote.PERMIT);
    assertThat(fn.vote(over)).isEqualTo(Vote.REJECT);
  }

  @Test
  void enqueueable_comparesOnlyTheRequestedDimensions() {
    // memory is overused, but the job asks for cpu only
    session.addJob("ns/hog").phase(PodGroupPhase.Inqueue).minResources("memory", "100Gi");
    FakeJob cpuOnly = session.addJob("ns/cpu").minResources("cpu", "1");
    FakeJob both =
        session.addJob("ns/both").minResources("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "1");
    JobEnqueueableFn fn =
        RecordingExtensions.open(plugin(null), session).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(fn.vote(cpuOnly)).isEqualTo(Vote.PERMIT);
    assertThat(fn.vote(both)).isEqualTo(Vote.REJECT);
    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .containsExactly(
            "resource in cluster is overused: overused memory, overused nvidia.com/gpu");
  }

  @Test
  void enqueueable_permitsJobsWithoutMinResources() {
    busy("ns/busy", "12");
    FakeJob bestEffort = session.addJob("ns/be");
    assertThat(
            RecordingExtensions.open(plugin(1.0), session)
                .get(ExtensionPoint.JOB_ENQUEUEABLE)
                .vote(bestEffort))
        .isEqualTo(Vote.PERMIT);
    assertThat(session.events()).isEmpty();
  }

  @Test
  void enqueued_ignoresJobsWithoutMinResourcesAndDeductsGatedTasks() {
    OvercommitPlugin p = open(null);
    FakeJob bestEffort = session.addJob("ns/be");
    FakeJob gated = session.addJob("ns/g").minResources("cpu", "4");
    gated.task("g-0").requests("cpu", "1").schedulingGate("example.com/gate");

    p.enqueued(bestEffort);
    p.enqueued(gated);

    assertThat(p.inqueue().milliCpu()).isEqualTo(3_000);
  }

  @Test
  void overusedMessage_withoutNamesIsThePrefix() {
    assertThat(OvercommitPlugin.overusedMessage(List.of()))
        .isEqualTo("resource in cluster is overused");
  }
}
