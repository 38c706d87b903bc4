package dev.caldera.runtime.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Felix cache a killed run leaves in the temporary directory is deleted by the next run. */
class FelixStorageTest {

  @TempDir Path tmp;

  /** A run that holds its cache until killed: prints the directory, then waits. */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      FelixStorage storage = FelixStorage.create(Path.of(args[0]));
      System.out.println(storage.dir());
      System.out.flush();
      Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }
  }

  @Test
  void theCacheOfARunKilledWithSigkill_isRemoved_whileALiveRunsIsKept() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process run =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                Holder.class.getName(),
                tmp.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    Path held;
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8));
      held = Path.of(out.readLine());
      assertThat(held).exists();

      assertThat(FelixStorage.removeStale(tmp)).as("the live run's cache").isEmpty();
      assertThat(held).exists();
    } finally {
      run.destroyForcibly(); // SIGKILL: the run deletes nothing
      run.waitFor(60, TimeUnit.SECONDS);
    }
    assertThat(held).exists();

    assertThat(FelixStorage.removeStale(tmp)).containsExactly(held);
    assertThat(held).doesNotExist();
  }

  @Test
  void aRunOfThisProcess_keepsItsCache_andDeletesItWhenClosed() throws Exception {
    FelixStorage mine = FelixStorage.create(tmp);
    Files.writeString(mine.dir().resolve("bundle.jar"), "x");

    assertThat(FelixStorage.removeStale(tmp)).isEmpty();
    assertThat(mine.dir()).exists();

    mine.close();
    assertThat(mine.dir()).doesNotExist();
  }

  @Test
  void aCacheWithoutALock_isRemovedOnlyOnceItIsAMinuteOld() throws Exception {
    Path old = Files.createDirectory(tmp.resolve(FelixStorage.PREFIX + "old"));
    Path young = Files.createDirectory(tmp.resolve(FelixStorage.PREFIX + "young"));
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minusSeconds(3600)));
    Path other = Files.createDirectory(tmp.resolve("someone-else"));
    Files.setLastModifiedTime(other, FileTime.from(Instant.now().minusSeconds(3600)));

    assertThat(FelixStorage.removeStale(tmp)).isEqualTo(List.of(old));
    assertThat(young).exists();
    assertThat(other).exists();
  }
}
