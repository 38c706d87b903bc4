package dev.caldera.cdstraining;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training's requests to the admin API of {@code caldera run}: the pages a monitoring system
 * and an operator read while a scheduler runs ({@code /metrics} with the JVM's own metrics, the
 * probes, {@code /api/...}), so their classes are in the archive too.
 */
final class AdminTraining {

  private AdminTraining() {}

  /** The line the admin bundle prints when it listens. */
  private static final Pattern ADMIN = Pattern.compile("(?m)^admin: (http://\\S+:\\d+)/ \\(");

  /** Read after the training API server's gangs are bound (the first is a job of it). */
  static final List<String> PAGES =
      List.of(
          "/metrics",
          "/healthz",
          "/readyz",
          "/api",
          "/api/status",
          "/api/conf",
          "/api/policies",
          "/api/plugins",
          "/api/bundles",
          "/api/sessions",
          "/api/events",
          "/api/queues",
          "/api/nodes",
          "/api/evictions",
          "/api/jobs/default/training-gang-0");

  /**
   * Reads every page of {@link #PAGES} from the admin API that {@code printed} (what the run
   * printed) names.
   *
   * @return what failed: no admin address, or a page that did not answer 200
   */
  static List<String> ask(String printed) throws InterruptedException {
    Matcher m = ADMIN.matcher(printed);
    if (!m.find()) {
      return List.of("caldera run printed no admin address (admin: http://HOST:PORT/ (...))");
    }
    String base = m.group(1);
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    List<String> failures = new ArrayList<>();
    for (String page : PAGES) {
      try {
        HttpResponse<byte[]> response =
            http.send(
                HttpRequest.newBuilder(URI.create(base + page))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
          failures.add("GET " + page + " of the admin API answered " + response.statusCode());
        }
      } catch (IOException e) {
        failures.add("GET " + page + " of the admin API: " + e);
      }
    }
    return failures;
  }
}
