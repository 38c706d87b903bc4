package dev.caldera.plugins.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.extension.Vote;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlaPluginTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private final FakeSession session = new FakeSession().now(NOW);

  private static SlaPlugin plugin(Object waitingTime) {
    Map<String, Object> values =
        waitingTime == null ? Map.of() : Map.of("sla-waiting-time", waitingTime);
    return (SlaPlugin) new SlaPluginFactory().create(new PluginArguments("sla", values, false));
  }

  private RecordingExtensions open(Object waitingTime) {
    return RecordingExtensions.open(plugin(waitingTime), session);
  }

  private FakeJob job(String uid, Duration age) {
    return session.addJob(uid).created(NOW.minus(age));
  }

  // ------------------------------------------------------------ arguments

  @Test
  void factory_isNamedSla() {
    assertThat(new SlaPluginFactory().name()).isEqualTo("sla");
    assertThat(plugin(null).name()).isEqualTo("sla");
  }

  @Test
  void arguments_readGoDurations() {
    assertThat(
            SlaArguments.from(
                new PluginArguments("sla", Map.of("sla-waiting-time", "1h30m"), false)))
        .isEqualTo(new SlaArguments(Duration.ofMinutes(90)));
    assertThat(SlaArguments.from(PluginArguments.empty("sla")).waitingTime()).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3", "3 minutes", "abc", "", "1d"})
  void arguments_refuseWhatGoCannotParse(String text) {
    assertThatThrownBy(() -> plugin(text))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("plugin sla: argument sla-waiting-time is \"" + text + "\"")
        .hasMessageContaining("expected a Go duration")
        .extracting(e -> ((PluginArgumentException) e).key())
        .isEqualTo("sla-waiting-time");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "0s", "-3m"})
  void arguments_refuseNonPositiveDurations(String text) {
    assertThatThrownBy(() -> plugin(text))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("expected a positive Go duration");
  }

  @Test
  void arguments_refuseNumbersAndLists() {
    assertThatThrownBy(() -> plugin(600)).isInstanceOf(PluginArgumentException.class);
    assertThatThrownBy(() -> plugin(List.of("3m")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("expected a string");
  }

  // ------------------------------------------------------------ extension points

  @Test
  void registersJobOrderEnqueueableAndPipelined() {
    assertThat(open("3m").points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.JOB_ORDER, ExtensionPoint.JOB_ENQUEUEABLE, ExtensionPoint.JOB_PIPELINED);
  }

  @Test
  void vote_permitsOnlyOnceTheWaitingTimeHasPassed() {
    FakeJob waitedLonger = job("ns/old", Duration.ofMinutes(4));
    FakeJob waitedExactly = job("ns/exact", Duration.ofMinutes(3));
    FakeJob young = job("ns/young", Duration.ofMinutes(2));
    RecordingExtensions ext = open("3m");

    for (var point : List.of(ExtensionPoint.JOB_ENQUEUEABLE, ExtensionPoint.JOB_PIPELINED)) {
      assertThat(vote(ext, point, waitedLonger)).isEqualTo(Vote.PERMIT);
      assertThat(vote(ext, point, waitedExactly)).isEqualTo(Vote.PERMIT);
      assertThat(vote(ext, point, young)).isEqualTo(Vote.ABSTAIN);
    }
  }

  private static Vote vote(RecordingExtensions ext, ExtensionPoint<?> point, FakeJob job) {
    return point == ExtensionPoint.JOB_ENQUEUEABLE
        ? ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job)
        : ext.get(ExtensionPoint.JOB_PIPELINED).vote(job);
  }

  @Test
  void vote_abstainsWithoutAnyWaitingTime() {
    FakeJob ancient = job("ns/a", Duration.ofDays(365));
    assertThat(open(null).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(ancient))
        .isEqualTo(Vote.ABSTAIN);
  }

  @Test
  void annotation_overridesTheArgument() {
    FakeJob shortSla = job("ns/short", Duration.ofMinutes(2)).annotation("sla-waiting-time", "1m");
    FakeJob longSla =
        job("ns/long", Duration.ofMinutes(2)).annotation("volcano.sh/sla-waiting-time", "1h");
    RecordingExtensions ext = open("3m");

    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(shortSla)).isEqualTo(Vote.PERMIT);
    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(longSla)).isEqualTo(Vote.ABSTAIN);
  }

  @Test
  void annotation_givesAWaitingTimeWithoutTheArgument() {
    FakeJob job = job("ns/j", Duration.ofSeconds(601)).annotation("sla-waiting-time", "600s");
    assertThat(open(null).get(ExtensionPoint.JOB_PIPELINED).vote(job)).isEqualTo(Vote.PERMIT);
  }

  @Test
  void invalidAnnotation_isReportedAndFallsBackToTheArgument() {
    FakeJob job = job("ns/j", Duration.ofMinutes(5)).annotation("sla-waiting-time", "10 minutes");
    RecordingExtensions ext = open("3m");

    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job)).isEqualTo(Vote.PERMIT);
    assertThat(ext.get(ExtensionPoint.JOB_PIPELINED).vote(job)).isEqualTo(Vote.PERMIT);

    assertThat(session.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "ns/j",
                "Warning",
                "InvalidSlaWaitingTime",
                "invalid sla-waiting-time \"10 minutes\" (time: unknown unit \" minutes\" in"
                    + " duration \"10 minutes\"); the job has the plugin's waiting time 3m"));
  }

  @Test
  void nonPositiveAnnotation_counts_asAbsent() {
    FakeJob job = job("ns/j", Duration.ofDays(1)).annotation("sla-waiting-time", "-1m");
    assertThat(open(null).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job)).isEqualTo(Vote.ABSTAIN);
    assertThat(session.events())
        .singleElement()
        .extracting(RecordedEvent::message)
        .asString()
        .contains("it is not positive")
        .endsWith("the job has no waiting time");
  }

  @Test
  void jobOrder_putsJobsWithADeadlineFirstThenTheEarlierDeadline() {
    FakeJob none = job("ns/none", Duration.ofHours(5));
    // deadline = now - 60m + 90m = now + 30m
    FakeJob later = job("ns/later", Duration.ofMinutes(60)).annotation("sla-waiting-time", "90m");
    // deadline = now - 10m + 20m = now + 10m
    FakeJob sooner = job("ns/sooner", Duration.ofMinutes(10)).annotation("sla-waiting-time", "20m");
    // same deadline as sooner
    FakeJob tie = job("ns/tie", Duration.ofMinutes(15)).annotation("sla-waiting-time", "25m");
    JobOrderFn order = open(null).get(ExtensionPoint.JOB_ORDER);

    assertThat(order.compare(sooner, later)).isNegative();
    assertThat(order.compare(later, sooner)).isPositive();
    assertThat(order.compare(later, none)).isNegative();
    assertThat(order.compare(none, later)).isPositive();
    assertThat(order.compare(none, none)).isZero();
    assertThat(order.compare(sooner, tie)).isZero();
  }

  @Test
  void jobOrder_usesTheArgumentForJobsWithoutAnnotation() {
    // deadline now - 1m + 3m = now + 2m
    FakeJob byArgument = job("ns/a", Duration.ofMinutes(1));
    // deadline now - 1m + 10m = now + 9m
    FakeJob byAnnotation = job("ns/b", Duration.ofMinutes(1)).annotation("sla-waiting-time", "10m");
    JobOrderFn order = open("3m").get(ExtensionPoint.JOB_ORDER);

    assertThat(order.compare(byArgument, byAnnotation)).isNegative();
  }
}
