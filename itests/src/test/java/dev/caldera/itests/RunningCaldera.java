package dev.caldera.itests;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code caldera run} started from a copy of the distribution, as an operator starts it, with its
 * output read line by line so that a test can wait for a line (with a timeout) instead of sleeping.
 */
final class RunningCaldera implements AutoCloseable {

  static final long TIMEOUT_SECONDS = 60;
  private static final Pattern ADMIN = Pattern.compile("admin: (http://[^/ ]+/)");

  private final Path home;
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> output = new ArrayList<>();

  private RunningCaldera(Path home, List<String> command) throws IOException {
    this.home = home;
    this.process =
        new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true).start();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  synchronized (output) {
                    output.add(line);
                  }
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("(output closed: " + e.getMessage() + ")");
              }
            });
    reader.setDaemon(true);
    reader.start();
  }

  /** A copy of the distribution under {@code dir}, its {@code log/} left out. */
  static Path copyOfDistribution(Path dir) throws IOException {
    Path from = Distribution.dir();
    Path to = dir.resolve("caldera");
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.sorted(Comparator.naturalOrder()).toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.startsWith(from.resolve("log"))) {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return to;
  }

  /** Runs {@code bin/caldera run ARGS} in {@code home}. */
  static RunningCaldera start(Path home, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/caldera").toString(), "run"));
    command.addAll(List.of(args));
    return new RunningCaldera(home, command);
  }

  Path home() {
    return home;
  }

  Process process() {
    return process;
  }

  /** The next output line containing {@code text}. */
  String awaitLine(String text) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        synchronized (output) {
          throw new AssertionError(
              "no line with \"" + text + "\"; output:\n" + String.join("\n", output));
        }
      }
      if (line.contains(text)) {
        return line;
      }
    }
  }

  /** The admin server's base URL, from the {@code admin: http://...} line. */
  String awaitAdminUrl() throws InterruptedException {
    Matcher admin = ADMIN.matcher(awaitLine("admin: http://"));
    if (!admin.find()) {
      throw new AssertionError("no admin URL in the output");
    }
    return admin.group(1);
  }

  /** The jar of {@code deploy/} whose name starts with {@code prefix}. */
  Path deployed(String prefix) throws IOException {
    return deployed(home, prefix);
  }

  /** The jar of {@code HOME/deploy/} whose name starts with {@code prefix}. */
  static Path deployed(Path home, String prefix) throws IOException {
    Path deploy = home.resolve("deploy");
    try (Stream<Path> files = Files.list(deploy)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(prefix))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + prefix + "* in " + deploy));
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
