package dev.caldera.runtime.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line, on a clock the test moves. */
class BenchProgressTest {

  private long now = 1_000_000_000L;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Places {@code pods} pods in one real session, counted by {@code counter}. */
  private static void placePods(PlacementCounter counter, int pods) throws Exception {
    new Scheduler(counter.watching(new ServiceLoaderPluginRegistry(), "gang"))
        .runSession(
            SyntheticCluster.generate(10, pods, 2, 10).snapshot(),
            SchedulerConf.parse(
                "actions: \"enqueue, allocate\"\n"
                    + "tiers:\n- plugins: [{name: gang}, {name: predicates}]\n",
                "test"));
  }

  @Test
  void line_givesPodsPlacedAndRateSoFar() throws Exception {
    PlacementCounter counter = new PlacementCounter();
    BenchProgress progress = new BenchProgress(err, () -> now, counter, 0, 2);
    progress.sessionStarted();
    placePods(counter, 120);
    now += 4_000_000_000L;

    progress.print();

    assertThat(printed())
        .isEqualTo("bench: session 1/2: 120 pods placed in 4.0 s, 30 pods/s so far\n");
  }

  @Test
  void nothingIsPrinted_betweenSessions() {
    BenchProgress progress = new BenchProgress(err, () -> now, new PlacementCounter(), 0, 1);
    progress.print();
    progress.sessionStarted();
    progress.sessionEnded();
    now += 5_000_000_000L;

    progress.print();

    assertThat(printed()).isEmpty();
  }

  @Test
  void warmUpSessions_areLabelledAsSuch() {
    BenchProgress progress = new BenchProgress(err, () -> now, new PlacementCounter(), 2, 3);
    progress.sessionStarted();
    assertThat(progress.line()).startsWith("bench: warm-up 1/2: 0 pods placed in 0.0 s");
    progress.sessionEnded();
    progress.sessionStarted();
    progress.sessionEnded();
    progress.sessionStarted();

    assertThat(progress.line()).startsWith("bench: session 1/3: ");
  }

  @Test
  void eachSession_countsFromZero() throws Exception {
    PlacementCounter counter = new PlacementCounter();
    BenchProgress progress = new BenchProgress(err, () -> now, counter, 0, 2);
    progress.sessionStarted();
    placePods(counter, 20);
    now += 1_000_000_000L;
    progress.sessionEnded();

    progress.sessionStarted();
    now += 2_000_000_000L;

    assertThat(progress.line())
        .isEqualTo("bench: session 2/2: 0 pods placed in 2.0 s, 0 pods/s so far");
  }
}
