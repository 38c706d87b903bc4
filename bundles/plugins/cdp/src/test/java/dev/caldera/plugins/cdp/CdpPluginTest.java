package dev.caldera.plugins.cdp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CdpPluginTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private final FakeSession session = new FakeSession().now(NOW);
  private final FakeTask preemptor = new FakeTask("ns/preemptor");

  /** A Running pod scheduled {@code ago} before now. */
  private static FakeTask running(String key, Duration ago) {
    return new FakeTask(key).status(TaskStatus.RUNNING).condition(scheduled(NOW.minus(ago)));
  }

  private static PodCondition scheduled(Instant at) {
    return new PodCondition("PodScheduled", "True", "", "", at);
  }

  private RecordingExtensions open() {
    return RecordingExtensions.open(
        new CdpPluginFactory().create(PluginArguments.empty("cdp")), session);
  }

  private List<TaskInfo> victims(TaskInfo... candidates) {
    Victims v = open().get(ExtensionPoint.PREEMPTABLE).select(preemptor, List.of(candidates));
    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    return v.tasks();
  }

  @Test
  void factory_isNamedCdpAndIgnoresArguments() {
    assertThat(new CdpPluginFactory().name()).isEqualTo("cdp");
    assertThat(
            new CdpPluginFactory()
                .create(new PluginArguments("cdp", Map.of("whatever", 1), false))
                .name())
        .isEqualTo("cdp");
  }

  @Test
  void registersPreemptableAndReclaimable() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(ExtensionPoint.PREEMPTABLE, ExtensionPoint.RECLAIMABLE);
  }

  @Test
  void protectsRunningPodsUntilTheCooldownHasPassedSinceScheduling() {
    FakeTask young =
        running("ns/young", Duration.ofMinutes(5)).label("volcano.sh/cooldown-time", "10m");
    FakeTask old =
        running("ns/old", Duration.ofMinutes(20)).label("volcano.sh/cooldown-time", "10m");
    FakeTask exact =
        running("ns/exact", Duration.ofSeconds(600)).label("volcano.sh/cooldown-time", "600s");
    FakeTask plain = running("ns/plain", Duration.ofSeconds(1));

    assertThat(victims(young, old, exact, plain)).containsExactly(old, exact, plain);
  }

  @Test
  void reclaimable_appliesTheSameRule() {
    FakeTask young =
        running("ns/young", Duration.ofMinutes(5)).annotation("volcano.sh/cooldown-time", "1h");
    FakeTask old =
        running("ns/old", Duration.ofHours(2)).annotation("volcano.sh/cooldown-time", "1h");

    Victims v = open().get(ExtensionPoint.RECLAIMABLE).select(preemptor, List.of(young, old));

    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    assertThat(v.tasks()).containsExactly(old);
  }

  @Test
  void labelWinsOverAnnotation() {
    FakeTask task =
        running("ns/p", Duration.ofMinutes(5))
            .label("volcano.sh/cooldown-time", "1m")
            .annotation("volcano.sh/cooldown-time", "1h");

    assertThat(victims(task)).containsExactly(task);
  }

  @Test
  void protectsOnlyRunningPods() {
    FakeTask bound =
        new FakeTask("ns/b")
            .status(TaskStatus.BOUND)
            .condition(scheduled(NOW.minusSeconds(1)))
            .label("volcano.sh/cooldown-time", "1h");

    assertThat(victims(bound)).containsExactly(bound);
  }

  @Test
  void podsWithoutATrueScheduledConditionOrTransitionTimeAreNotProtected() {
    FakeTask noCondition =
        new FakeTask("ns/none").status(TaskStatus.RUNNING).label("volcano.sh/cooldown-time", "1h");
    FakeTask notTrue =
        new FakeTask("ns/false")
            .status(TaskStatus.RUNNING)
            .condition(new PodCondition("PodScheduled", "False", "", "", NOW))
            .label("volcano.sh/cooldown-time", "1h");
    FakeTask noTime =
        new FakeTask("ns/notime")
            .status(TaskStatus.RUNNING)
            .condition(new PodCondition("PodScheduled", "True", "", ""))
            .label("volcano.sh/cooldown-time", "1h");

    assertThat(victims(noCondition, notTrue, noTime)).containsExactly(noCondition, notTrue, noTime);
  }

  @Test
  void usesTheFirstTrueScheduledConditionOnly() {
    FakeTask task =
        new FakeTask("ns/p")
            .status(TaskStatus.RUNNING)
            .condition(scheduled(NOW.minus(Duration.ofHours(3))))
            .condition(scheduled(NOW.minusSeconds(1)))
            .label("volcano.sh/cooldown-time", "1h");

    assertThat(victims(task)).containsExactly(task);
  }

  @Test
  void invalidDurationIsReportedOnceAndMeansNoCooldown() {
    FakeTask task =
        running("ns/p", Duration.ofSeconds(1)).annotation("volcano.sh/cooldown-time", "10 min");
    RecordingExtensions ext = open();

    assertThat(ext.get(ExtensionPoint.PREEMPTABLE).select(preemptor, List.of(task)).tasks())
        .containsExactly(task);
    assertThat(ext.get(ExtensionPoint.RECLAIMABLE).select(preemptor, List.of(task)).tasks())
        .containsExactly(task);

    assertThat(session.events())
        .containsExactly(
            new RecordedEvent(
                "Pod",
                "ns/p",
                "Warning",
                "InvalidCooldownTime",
                "invalid annotation volcano.sh/cooldown-time=\"10 min\" (time: unknown unit \" min\""
                    + " in duration \"10 min\"); the pod has no cooldown protection"));
  }

  @Test
  void invalidLabelHidesAValidAnnotation() {
    FakeTask task =
        running("ns/p", Duration.ofSeconds(1))
            .label("volcano.sh/cooldown-time", "10")
            .annotation("volcano.sh/cooldown-time", "10m");

    assertThat(victims(task)).containsExactly(task);
    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .containsExactly(
            "invalid label volcano.sh/cooldown-time=\"10\" (time: missing unit in duration"
                + " \"10\"); the pod has no cooldown protection");
  }

  @Test
  void emptyCandidateListGivesAnEmptyPermit() {
    assertThat(victims()).isEmpty();
  }
}
