package dev.caldera.runtime.run;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Felix's cache of one run: a {@code caldera-felix-*} directory in the temporary directory, locked
 * while the run lives and deleted when it ends. A run killed with {@code kill -9} cannot delete its
 * own; the next run deletes every such directory whose lock no process holds (the operating system
 * releases a dead process's locks).
 */
final class FelixStorage implements AutoCloseable {

  static final String PREFIX = "caldera-felix-";
  static final String LOCK = ".caldera-run.lock";

  /**
   * A cache without a lock file older than this is stale too (from a release without locks); a
   * younger one may be a run that has just created it and not locked it yet.
   */
  static final Duration UNLOCKED_GRACE = Duration.ofMinutes(1);

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;

  private FelixStorage(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /** A new, locked cache directory in {@code tmp}. */
  static FelixStorage create(Path tmp) throws IOException {
    Path dir = Files.createTempDirectory(tmp, PREFIX);
    FileChannel channel =
        FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      return new FelixStorage(dir, channel, channel.lock());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The system's temporary directory. */
  static Path systemTmp() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  Path dir() {
    return dir;
  }

  /** Releases the lock and deletes the cache. */
  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // Deleting below is what matters.
    }
    OsgiLauncher.deleteRecursively(dir);
  }

  /**
   * Deletes the caches in {@code tmp} that no live run holds.
   *
   * @return the directories deleted
   */
  static List<Path> removeStale(Path tmp) {
    List<Path> removed = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
      for (Path d : dirs) {
        if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) && stale(d)) {
          OsgiLauncher.deleteRecursively(d);
          if (Files.notExists(d)) {
            removed.add(d);
          }
        }
      }
    } catch (IOException e) {
      // An unreadable temporary directory: nothing to clean.
    }
    return removed;
  }

  private static boolean stale(Path dir) {
    Path lockFile = dir.resolve(LOCK);
    if (!Files.exists(lockFile)) {
      try {
        return Files.getLastModifiedTime(dir)
            .toInstant()
            .isBefore(Instant.now().minus(UNLOCKED_GRACE));
      } catch (IOException e) {
        return false;
      }
    }
    try (FileChannel c = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock held = c.tryLock();
      if (held == null) {
        return false; // another process runs with it
      }
      held.release();
      return true;
    } catch (OverlappingFileLockException e) {
      return false; // a run of this process
    } catch (IOException e) {
      return false;
    }
  }
}
