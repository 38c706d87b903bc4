package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.loop.LoopEvent;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conf path that is, for a while, a FIFO: it is refused unread (a FIFO's open blocks until a
 * writer comes), a read that blocks anyway is reported and abandoned, and later edits are read.
 */
class ConfFileSpecialFilesTest {

  private static final String CONF = "actions: \"enqueue\"\ntiers:\n- plugins:\n  - name: gang\n";

  @TempDir Path dir;

  private final List<LoopEvent> events = new CopyOnWriteArrayList<>();
  private final ServiceLoaderPluginRegistry registry = new ServiceLoaderPluginRegistry();

  /** Makes {@code path} a FIFO with mkfifo; skips the test, saying why, where there is none. */
  private static void mkfifo(Path path) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      System.out.println("ConfFileSpecialFilesTest skipped: no mkfifo (" + e.getMessage() + ")");
      Assumptions.abort("no mkfifo on this system: " + e.getMessage());
      return;
    }
    boolean done = p.waitFor(30, TimeUnit.SECONDS);
    if (!done || p.exitValue() != 0 || !Files.exists(path)) {
      System.out.println("ConfFileSpecialFilesTest skipped: mkfifo failed");
      Assumptions.abort("mkfifo failed on this system");
    }
  }

  /** Opens the FIFO for writing and closes it: a reader blocked opening it gets an empty read. */
  private static void release(Path fifo) throws IOException {
    try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
      out.flush();
    }
  }

  private List<String> rejections() {
    return events.stream()
        .filter(e -> e.reason().equals("ConfRejected"))
        .map(LoopEvent::message)
        .toList();
  }

  @Test
  void aFifo_isRefusedUnreadWithAnEvent_andTheFileThatReplacesItIsRead() throws Exception {
    Path conf = dir.resolve("scheduler.conf");
    mkfifo(conf);
    ConfFile file = new ConfFile(conf, events::add);
    try {
      ConfFile.Change first =
          assertTimeoutPreemptively(Duration.ofSeconds(60), () -> file.refresh(registry));

      assertThat(first).isEqualTo(ConfFile.Change.REJECTED);
      assertThat(rejections())
          .singleElement()
          .asString()
          .contains(conf.toString(), "is not a regular file (a FIFO");

      Files.delete(conf);
      Files.writeString(conf, CONF);
      assertThat(file.refresh(registry)).isEqualTo(ConfFile.Change.ACCEPTED);
      assertThat(file.conf().actions()).containsExactly("enqueue");
    } finally {
      file.close();
    }
  }

  @Test
  void aReadThatBlocks_isReportedAndAbandoned_andALaterEditIsRead() throws Exception {
    Path conf = dir.resolve("scheduler.conf");
    Files.writeString(conf, CONF);
    // The regular-file check passes, then the path is a FIFO: as a swap between check and open.
    ConfFile file = new ConfFile(conf, events::add, p -> true, 300);
    try {
      assertThat(file.refresh(registry)).isEqualTo(ConfFile.Change.ACCEPTED);
      Files.delete(conf);
      mkfifo(conf);

      ConfFile.Change stuck =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () -> {
                ConfFile.Change c;
                do {
                  c = file.refresh(registry);
                } while (c == ConfFile.Change.NONE);
                return c;
              });

      assertThat(stuck).isEqualTo(ConfFile.Change.REJECTED);
      assertThat(rejections())
          .singleElement()
          .asString()
          .contains("reading conf file " + conf, "has not finished after 0.3 s")
          .contains("the conf loaded at");
      assertThat(file.conf().actions()).as("the conf in force stays").containsExactly("enqueue");

      release(conf);
      Files.delete(conf);
      Files.writeString(conf, CONF.replace("enqueue", "allocate"));
      ConfFile.Change later =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () -> {
                ConfFile.Change c;
                do {
                  c = file.refresh(registry);
                } while (c == ConfFile.Change.NONE);
                return c;
              });
      assertThat(later).isEqualTo(ConfFile.Change.ACCEPTED);
      assertThat(file.conf().actions()).containsExactly("allocate");
    } finally {
      file.close();
    }
  }
}
