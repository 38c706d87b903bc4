package dev.caldera.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads a running scheduler's admin API ({@code caldera why}, {@code caldera queues}). */
final class AdminClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String base;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  AdminClient(AdminAddress address) {
    this.base = address.base();
  }

  /** A failure to show the user: one line. */
  static final class AdminError extends Exception {
    private static final long serialVersionUID = 1L;

    AdminError(String message) {
      super(message);
    }
  }

  /** The JSON at {@code path}; an {@link AdminError} naming the address or the API's error. */
  JsonNode get(String path) throws AdminError {
    HttpResponse<String> r;
    try {
      r =
          http.send(
              HttpRequest.newBuilder(URI.create(base + path))
                  .timeout(Duration.ofSeconds(10))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AdminError(
          "cannot reach the scheduler's admin API at "
              + base
              + " ("
              + e
              + "); is `caldera run` up? (--admin URL or CALDERA_ADMIN_URL)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AdminError("interrupted");
    }
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AdminError(base + path + " answered " + r.statusCode() + " without JSON");
    }
    if (r.statusCode() != 200) {
      throw new AdminError(body.path("error").asText(base + path + " answered " + r.statusCode()));
    }
    return body;
  }
}
