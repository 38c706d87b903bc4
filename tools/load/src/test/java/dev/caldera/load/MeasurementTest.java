package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's figures from hand-made times (nanoseconds from an arbitrary origin). */
class MeasurementTest {

  private static final long S = 1_000_000_000L;
  private static final long T0 = 1_000 * S;

  private static Measurement.Facts facts(String mode, Duration cpu) {
    return new Measurement.Facts(
        mode,
        "test workload",
        "https://api:6443/",
        "caldera-load-test01",
        "3 fake nodes",
        "test scheduler",
        mode.equals("backlog") ? "the launch" : "the start of the stream",
        T0,
        mode.equals("backlog") ? null : 2.0,
        Duration.ofSeconds(30),
        cpu,
        5 * S,
        null,
        null);
  }

  private static final double NEVER = Double.NaN;

  /** Pod i sent at T0 + sent[i], bound at T0 + bound[i] ({@link #NEVER}: not bound), in s. */
  private static PodTimes times(double[] sent, double[] bound) {
    PodTimes t = new PodTimes(new Workload(0, sent.length));
    for (int i = 0; i < sent.length; i++) {
      t.sent(i, T0 + (long) (sent[i] * S));
      t.created(i, T0 + (long) (sent[i] * S) + 1);
      if (!Double.isNaN(bound[i])) {
        t.seenBound("pod-" + i, T0 + (long) (bound[i] * S));
      }
    }
    return t;
  }

  @Test
  void aStream_givesRatesLatenciesAndTheTimeline() {
    PodTimes t =
        times(new double[] {0, 0.5, 1.0, 1.5, 2.0}, new double[] {0.25, 1.0, 1.25, 2.75, NEVER});

    LoadReport r = Measurement.report(facts("stream", Duration.ofSeconds(2)), t);

    assertThat(r.podsPlanned()).isEqualTo(5);
    assertThat(r.podsCreated()).isEqualTo(5);
    assertThat(r.podsBound()).isEqualTo(4);
    assertThat(r.podsNeverBound()).isEqualTo(1);
    assertThat(r.creationSeconds()).isCloseTo(2.0, within(1e-9));
    assertThat(r.achievedCreationRate()).isCloseTo(2.0, within(1e-9));
    assertThat(r.requestedRate()).isEqualTo(2.0);
    assertThat(r.throughput()).as("4 bound by 2.75 s").isCloseTo(4 / 2.75, within(1e-9));
    assertThat(r.firstBindSeconds()).isCloseTo(0.25, within(1e-9));
    assertThat(r.allBoundSeconds()).as("a stream has no start-up time").isNull();
    // Latencies 0.25, 0.5, 0.25, 1.25: nearest rank.
    assertThat(r.createToBound().pods()).isEqualTo(4);
    assertThat(r.createToBound().p50()).isCloseTo(0.25, within(1e-9));
    assertThat(r.createToBound().p90()).isCloseTo(1.25, within(1e-9));
    assertThat(r.createToBound().max()).isCloseTo(1.25, within(1e-9));
    assertThat(r.boundPerSecond()).containsExactly(1, 2, 1);
    assertThat(r.schedulerCpuSeconds()).isEqualTo(2.0);
    assertThat(r.cpuWindowSeconds()).isEqualTo(5.0);
    assertThat(r.schedulerCpuSecondsPer1000Bound()).isCloseTo(500.0, within(1e-9));
  }

  @Test
  void aBacklog_measuresFromTheLaunch() {
    // Created before the launch (negative), bound after it.
    PodTimes t = times(new double[] {-3, -2.5, -2}, new double[] {1.5, 2.0, 3.5});

    LoadReport r = Measurement.report(facts("backlog", null), t);

    assertThat(r.firstBindSeconds()).isCloseTo(1.5, within(1e-9));
    assertThat(r.allBoundSeconds()).isCloseTo(3.5, within(1e-9));
    assertThat(r.bindRateFirstToLast()).isCloseTo(2 / 2.0, within(1e-9));
    assertThat(r.throughput()).isCloseTo(3 / 3.5, within(1e-9));
    assertThat(r.podsBoundBeforeWindowStart()).isZero();
    assertThat(r.requestedRate()).isNull();
    assertThat(r.schedulerCpuSeconds()).isNull();
    assertThat(r.schedulerCpuSecondsPer1000Bound()).isNull();
  }

  @Test
  void podsBoundBeforeTheLaunch_areCountedApart_andThereIsNoStartUpTime() {
    PodTimes t = times(new double[] {-3, -2}, new double[] {-1, 2});

    LoadReport r = Measurement.report(facts("backlog", null), t);

    assertThat(r.podsBoundBeforeWindowStart()).isEqualTo(1);
    assertThat(r.podsBound()).isEqualTo(2);
    assertThat(r.allBoundSeconds()).isNull();
    assertThat(r.boundPerSecond()).containsExactly(0, 0, 1);
  }

  @Test
  void nothingBound_hasNoLatencyNorThroughput() {
    PodTimes t = times(new double[] {0, 1}, new double[] {NEVER, NEVER});

    LoadReport r = Measurement.report(facts("stream", Duration.ofSeconds(1)), t);

    assertThat(r.podsBound()).isZero();
    assertThat(r.podsNeverBound()).isEqualTo(2);
    assertThat(r.createToBound()).isNull();
    assertThat(r.throughput()).isNull();
    assertThat(r.boundPerSecond()).isEmpty();
    assertThat(r.schedulerCpuSecondsPer1000Bound()).isNull();
  }

  @Test
  void aFailedCreate_isNeitherCreatedNorNeverBound() {
    PodTimes t = new PodTimes(new Workload(0, 2));
    t.sent(0, T0);
    t.created(0, T0 + 1);
    t.seenBound("pod-0", T0 + S);
    t.sent(1, T0);
    t.failed(1, "HTTP 500");

    LoadReport r = Measurement.report(facts("stream", null), t);

    assertThat(r.podsCreated()).isEqualTo(1);
    assertThat(r.createFailures()).isEqualTo(1);
    assertThat(r.firstCreateFailure()).isEqualTo("pod-1: HTTP 500");
    assertThat(r.podsNeverBound()).isZero();
  }

  @Test
  void perSecond_countsWholeSecondsFromTheStart() {
    assertThat(Measurement.perSecond(List.of(T0, T0 + S - 1, T0 + S, T0 + 3 * S), T0))
        .containsExactly(2, 1, 0, 1);
    assertThat(Measurement.perSecond(List.of(), T0)).isEmpty();
  }
}
