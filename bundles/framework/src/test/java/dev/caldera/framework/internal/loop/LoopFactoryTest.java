package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.internal.loop.LoopFixtures.MutableRegistry;
import dev.caldera.framework.internal.loop.LoopFixtures.OnePodCluster;
import dev.caldera.framework.internal.loop.LoopFixtures.RecordingFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopFactoryTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  /**
   * A writer like a real API server's: what it applied is accepted only once the server answers,
   * which here happens when the writer is asked to wait for the answers.
   */
  private static final class AnsweringLaterWriter implements ClusterWriter {
    private final boolean answersInTime;
    private volatile int applied;
    private volatile Accepted accepted = new Accepted(0, 0);
    private volatile Duration waitedFor;

    AnsweringLaterWriter(boolean answersInTime) {
      this.answersInTime = answersInTime;
    }

    @Override
    public void apply(SessionResult result) {
      applied += result.binds().size();
    }

    @Override
    public Accepted accepted() {
      return accepted;
    }

    @Override
    public boolean awaitApplied(Duration timeout) {
      waitedFor = timeout;
      if (answersInTime) {
        accepted = new Accepted(applied, 0);
      }
      return answersInTime;
    }
  }

  private String stopAfterOneSession(AnsweringLaterWriter writer) throws Exception {
    Files.writeString(
        dir.resolve("scheduler.conf"),
        """
        actions: "enqueue, allocate"
        tiers:
        - plugins:
          - name: quota
        """);
    CountDownLatch finished = new CountDownLatch(1);
    LoopFactory.Running running =
        LoopFactory.start(
            new LoopFactory.Options(
                dir.resolve("scheduler.conf"),
                null,
                Duration.ofMillis(5),
                null,
                1,
                Duration.ZERO,
                null,
                "text",
                1 << 20,
                1,
                new PrintStream(console, true, StandardCharsets.UTF_8),
                false),
            new MutableRegistry().add(new RecordingFactory("quota"), "q 1"),
            new OnePodCluster(),
            writer,
            () -> null,
            finished::countDown);
    assertThat(finished.await(30, TimeUnit.SECONDS)).isTrue();
    running.stop();
    return console.toString(StandardCharsets.UTF_8);
  }

  @Test
  void stop_countsTheBindsTheClusterAcceptedOnceItAnsweredTheWritesInFlight() throws Exception {
    AnsweringLaterWriter writer = new AnsweringLaterWriter(true);

    String output = stopAfterOneSession(writer);

    assertThat(writer.applied).isEqualTo(1);
    assertThat(writer.waitedFor).isEqualTo(LoopFactory.WRITES_TIMEOUT);
    assertThat(output).contains("SchedulerStopped: after 1 sessions: 1 binds, 0 evictions\n");
  }

  @Test
  void stop_saysSoWhenWritesAreStillUnanswered() throws Exception {
    String output = stopAfterOneSession(new AnsweringLaterWriter(false));

    assertThat(output)
        .contains(
            "SchedulerStopped: after 1 sessions: 0 binds, 0 evictions"
                + " (writes still unanswered after 10 s)");
  }
}
