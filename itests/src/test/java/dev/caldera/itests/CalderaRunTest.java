package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
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

  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private RunningCaldera caldera;
  private Process process;

  @AfterEach
  void kill() {
    if (caldera != null) {
      caldera.close();
    }
  }

  private String awaitLine(String text) throws InterruptedException {
    return caldera.awaitLine(text);
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void run_schedulesTheDemo_hotDeploysPlugins_holdsForAMissingOne_andStopsOnSigterm()
      throws Exception {
    Path home = RunningCaldera.copyOfDistribution(tmp);
    Path cdp = RunningCaldera.deployed(home, "caldera-plugin-cdp-");
    Path cdpAside = Files.move(cdp, tmp.resolve(cdp.getFileName()));
    caldera =
        RunningCaldera.start(
            home, "--admin-address", "127.0.0.1:0", "--status-interval", "1s", "--duration", "5m");
    process = caldera.process();

    String url = caldera.awaitAdminUrl();
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

    Path card = caldera.deployed("caldera-plugin-capacity-card-");
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

    // SIGHUP (a closed terminal, a habit of reloading daemons) is logged and changes nothing. When
    // this build runs with SIGHUP ignored (under nohup, say), the scheduler inherits that and the
    // JVM leaves the signal alone: it must still survive it, only without the line.
    assertThat(new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).start().waitFor())
        .isZero();
    if (!sighupIgnoredByThisProcess()) {
      awaitLine("caldera: SIGHUP ignored");
    }
    awaitLine("binds");
    assertThat(process.isAlive()).isTrue();

    // SIGTERM through the handle: Process.destroy() would also close our end of its output.
    process.toHandle().destroy();
    assertThat(process.waitFor(RunningCaldera.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    awaitLine("SIGTERM: stopping after the session in flight");
    awaitLine("caldera: stopped");
    assertThat(process.exitValue()).isZero();
    assertThat(home.resolve("log/caldera.log"))
        .content()
        .contains("session 1 ", "capacity-card=caldera-plugin-capacity-card");
  }

  /** Whether SIGHUP is ignored here, and so in the processes this one starts (Linux only). */
  private static boolean sighupIgnoredByThisProcess() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.isReadable(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 1) != 0;
      }
    }
    return false;
  }
}
