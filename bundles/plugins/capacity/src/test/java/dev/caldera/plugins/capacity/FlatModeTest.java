package dev.caldera.plugins.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.QueueOrderFn;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import org.junit.jupiter.api.Test;

class FlatModeTest {

  private final FakeSession session = new FakeSession();
  private final CapacityPlugin plugin = new CapacityPlugin(CapacityArguments.flat());
  private final FakeNode node =
      session.addNode("n1").allocatable("cpu", "10", "memory", "10Gi", "pods", "110");

  private RecordingExtensions open() {
    return RecordingExtensions.open(plugin, session);
  }

  private FakeTask running(String queue, String cpu) {
    return session
        .addJob("ns/" + queue + "-run")
        .queue(queue)
        .task("r")
        .requests("cpu", cpu, "memory", "1Gi")
        .status(TaskStatus.RUNNING)
        .on(node);
  }

  private FakeTask pending(String queue, String job, String cpu) {
    return session.addJob("ns/" + job).queue(queue).task("p").requests("cpu", cpu);
  }

  @Test
  void registersVolcanosFlatExtensionPoints() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.RECLAIMABLE,
            ExtensionPoint.PREEMPTIVE,
            ExtensionPoint.ALLOCATABLE,
            ExtensionPoint.JOB_ENQUEUEABLE,
            ExtensionPoint.JOB_ENQUEUED,
            ExtensionPoint.PRE_PREDICATE,
            ExtensionPoint.SIMULATE_ADD_TASK,
            ExtensionPoint.SIMULATE_REMOVE_TASK,
            ExtensionPoint.SIMULATE_ALLOCATABLE,
            ExtensionPoint.EVENT_HANDLER,
            ExtensionPoint.QUEUE_ORDER);
  }

  @Test
  void realCapability_isTheUnguaranteedTotalPlusOwnGuaranteeWithinCapability() {
    session.addQueue("q1").guarantee("cpu", "2").capability("cpu", "6");
    session.addQueue("q2").guarantee("cpu", "3");
    session.addQueue("idle").guarantee("cpu", "1");
    pending("q1", "j1", "1");
    pending("q2", "j2", "1");
    open();

    // total 10 − guarantees (2 + 3 + 1) = 4 unguaranteed
    assertThat(plugin.attr("q1").realCapability.milliCpu()).isEqualTo(6000); // min(4 + 2, 6)
    assertThat(plugin.attr("q2").realCapability.milliCpu()).isEqualTo(7000); // 4 + 3
    // an unset memory capability is unlimited, so the memory limit is the total
    assertThat(plugin.attr("q1").realCapability.memory()).isEqualTo(10.0 * (1L << 30));
    assertThat(plugin.attr("idle")).isNull();
  }

  @Test
  void deserved_isClippedToRealCapabilityAndRaisedToGuarantee() {
    session.addQueue("big").deserved("cpu", "20", "memory", "1Gi");
    session.addQueue("small").deserved("cpu", "1").guarantee("cpu", "2", "memory", "2Gi");
    pending("big", "j1", "1");
    pending("small", "j2", "1");
    open();

    assertThat(plugin.attr("big").deserved.milliCpu()).isEqualTo(8000); // 10 − 2 guaranteed
    assertThat(plugin.attr("small").deserved.milliCpu()).isEqualTo(2000);
    assertThat(plugin.attr("small").deserved.memory()).isEqualTo(2.0 * (1L << 30));
  }

  @Test
  void share_isTheLargestRatioOverDeservedAndOneWithoutDeserved() {
    session.addQueue("q1").deserved("cpu", "4", "memory", "4Gi");
    session.addQueue("besteffort");
    running("q1", "3");
    running("besteffort", "1");
    open();

    assertThat(plugin.attr("q1").share).isEqualTo(0.75); // max(3/4, 1/4)
    assertThat(plugin.attr("besteffort").share).isEqualTo(1.0);
  }

  @Test
  void queueOrder_priorityThenShareThenDeservedBeforeBestEffort() {
    session.addQueue("low").deserved("cpu", "4");
    session.addQueue("high").deserved("cpu", "4");
    session.addQueue("important").priority(10).deserved("cpu", "1");
    session.addQueue("full").deserved("cpu", "1");
    session.addQueue("besteffort");
    running("low", "1");
    running("high", "3");
    running("important", "1");
    running("full", "1");
    running("besteffort", "1");
    QueueOrderFn order = open().get(ExtensionPoint.QUEUE_ORDER);

    assertThat(order.compare(session.queue("low"), session.queue("high"))).isNegative();
    assertThat(order.compare(session.queue("high"), session.queue("low"))).isPositive();
    assertThat(order.compare(session.queue("important"), session.queue("low"))).isNegative();
    // "full" and "besteffort" both have share 1: the one with a deserved goes first
    assertThat(order.compare(session.queue("full"), session.queue("besteffort"))).isNegative();
    assertThat(order.compare(session.queue("besteffort"), session.queue("full"))).isPositive();
  }

  @Test
  void allocatable_limitIsRealCapabilityNotDeserved() {
    session.addQueue("q1").deserved("cpu", "1").capability("cpu", "4");
    running("q1", "2");
    FakeTask fits = pending("q1", "j1", "2");
    FakeTask tooBig = pending("q1", "j2", "3");
    AllocatableFn allocatable = open().get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(session.queue("q1"), fits)).isTrue(); // 4 ≤ 4 although deserved 1
    assertThat(allocatable.test(session.queue("q1"), tooBig)).isFalse();
    assertThat(session.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo("Pod");
              assertThat(e.key()).isEqualTo(tooBig.key());
              assertThat(e.message())
                  .isEqualTo(
                      "queue resource quota insufficient: insufficient cpu; queue q1:"
                          + " cpu requested 3, total would be 5, limit 4");
            });
  }

  @Test
  void allocatable_refusesClosedQueue() {
    session.addQueue("q1").state("Closed");
    FakeTask task = pending("q1", "j1", "1");

    AllocatableFn allocatable = open().get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(session.queue("q1"), task)).isFalse();
  }

  @Test
  void allocatable_checksOnlyRequestedDimensionsStrictly() {
    session.addQueue("q1").capability("cpu", "2", "memory", "1Gi");
    running("q1", "1"); // memory already at the 1Gi limit
    FakeTask cpuOnly = pending("q1", "j1", "1");
    AllocatableFn allocatable = open().get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(session.queue("q1"), cpuOnly)).isTrue();
  }
}
