package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caldera run} from a copy of the distribution, as an operator runs it: it schedules the
 * demo cluster, a plugin jar dropped into {@code deploy/} is served within two periods, removing a
 * plugin the conf names holds scheduling (and {@code /readyz} says which), SIGHUP is logged and
 * ignored, and SIGTERM exits 0. Every wait is on a line of the run's output, with a timeout.
 */
class CalderaRunTest {

  private static final long TIMEOUT_SECONDS = 60;
  private static final Pattern ADMIN = Pattern.compile("admin: (http://[^/ ]+/)");

  @TempDir Path tmp;

  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> output = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private Process process;

  @AfterEach
  void kill() {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
    }
  }

  private Path copyOfDistribution() throws IOException {
    Path from = Distribution.dir();
    Path to = tmp.resolve("caldera");
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

  private void start(Path home, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/caldera").toString(), "run"));
    command.addAll(List.of(args));
    process =
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

  /** The next output line containing {@code text}. */
  private String awaitLine(String text) throws InterruptedException {
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

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Path jar(Path deploy, String prefix) throws IOException {
    try (Stream<Path> files = Files.list(deploy)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(prefix))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + prefix + "* in " + deploy));
    }
  }

  @Test
  void run_schedulesTheDemo_hotDeploysPlugins_holdsForAMissingOne_andStopsOnSigterm()
      throws Exception {
    Path home = copyOfDistribution();
    Path deploy = home.resolve("deploy");
    Path cdp = jar(deploy, "caldera-plugin-cdp-");
    Path cdpAside = Files.move(cdp, tmp.resolve(cdp.getFileName()));
    start(home, "--admin-address", "127.0.0.1:0", "--status-interval", "1s", "--duration", "5m");

    Matcher admin = ADMIN.matcher(awaitLine("admin: http://"));
    assertThat(admin.find()).isTrue();
    String url = admin.group(1);
    awaitLine("caldera: running in Apache Felix");
    awaitLine("binds");
    assertThat(get(url + "readyz").statusCode()).isEqualTo(200);
    assertThat(get(url + "api/plugins").body()).doesNotContain("\"name\" : \"cdp\"");

    long dropped = System.nanoTime();
    Files.move(cdpAside, tmp.resolve("staged.jar"));
    Files.move(tmp.resolve("staged.jar"), cdp, StandardCopyOption.ATOMIC_MOVE);
    awaitLine("PluginLoaded: cdp");
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - dropped);
    assertThat(get(url + "api/plugins").body()).contains("\"name\" : \"cdp\"");
    assertThat(millis).as("jar dropped -> plugin served, in ms (period 1 s)").isLessThan(2000);

    Path card = jar(deploy, "caldera-plugin-capacity-card-");
    Path cardAside = Files.move(card, tmp.resolve(card.getFileName()));
    awaitLine("SchedulingHeld");
    HttpResponse<String> ready = get(url + "readyz");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("capacity-card");
    // /metrics from the Prometheus client embedded in the admin bundle, inside Felix: the loop's
    // figures, the JVM's and the process's, and the latency of the sessions run so far.
    assertThat(get(url + "metrics").body())
        .contains(
            "caldera_scheduling_held_plugin{plugin=\"capacity-card\"} 1.0\n",
            "jvm_memory_used_bytes{area=\"heap\"}",
            "jvm_threads_current ",
            "process_cpu_seconds_total ",
            "process_open_fds ",
            "caldera_action_duration_seconds_count{action=\"allocate\"}",
            "caldera_plugin_function_duration_seconds_count{function=\"predicate\",plugin=\"predicates\"}");
    Files.move(cardAside, card);
    awaitLine("SchedulingResumed");

    // SIGHUP (a closed terminal, a habit of reloading daemons) is logged and changes nothing.
    assertThat(new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).start().waitFor())
        .isZero();
    awaitLine("caldera: SIGHUP ignored");
    awaitLine("binds");
    assertThat(process.isAlive()).isTrue();

    // SIGTERM through the handle: Process.destroy() would also close our end of its output.
    process.toHandle().destroy();
    assertThat(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    awaitLine("SIGTERM: stopping after the session in flight");
    awaitLine("caldera: stopped");
    assertThat(process.exitValue()).isZero();
    assertThat(home.resolve("log/caldera.log"))
        .content()
        .contains("session 1 ", "capacity-card=caldera-plugin-capacity-card");
  }
}
