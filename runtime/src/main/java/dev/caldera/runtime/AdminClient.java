package dev.caldera.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.caldera.framework.loop.TerminalText;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Reads a running scheduler's admin API ({@code caldera why}, {@code queues} and {@code snapshot}).
 * Every failure is one {@link AdminError} line that names the address.
 *
 * <p>What the commands print comes from the cluster (names, annotations, messages), so every text
 * of an answer and of an error is made safe for a terminal here, once ({@link TerminalText}): the
 * commands print what they get.
 *
 * <p>Through {@link HttpURLConnection}, not {@code java.net.http.HttpClient}: a command makes one
 * request, and the client's start (its selector thread, and the TLS context it sets up even for
 * plain HTTP) took about a quarter of a second of {@code caldera why} on two cores.
 */
final class AdminClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String base;
  private final String token;
  private final Duration timeout;

  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

  /** An answer: its status and its body as text. */
  private record Answer(int statusCode, String body) {}

  /** Reads without a token, waiting up to 10 s for an answer. */
  AdminClient(AdminAddress address) {
    this(address, null, Duration.ofSeconds(10));
  }

  /** Sends {@code token} (if not blank) as a bearer token and waits up to {@code timeout}. */
  AdminClient(AdminAddress address, String token, Duration timeout) {
    this.base = address.base();
    this.token = token == null || token.isBlank() ? null : token.strip();
    this.timeout = timeout;
  }

  /** A failure to show the user: one line. */
  static final class AdminError extends Exception {
    private static final long serialVersionUID = 1L;

    AdminError(String message) {
      super(TerminalText.escape(message));
    }
  }

  /** The JSON at {@code path}; an {@link AdminError} naming the address or the API's error. */
  JsonNode get(String path) throws AdminError {
    Answer r = send(path, false);
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AdminError(base + path + " answered " + r.statusCode() + " without JSON");
    }
    if (r.statusCode() != 200) {
      throw new AdminError(body.path("error").asText(base + path + " answered " + r.statusCode()));
    }
    return printable(body);
  }

  /**
   * {@code value} as one path segment of a URL: percent-encoded, a space as {@code %20} (the admin
   * API reads {@code +} as a plus, as URI paths do).
   */
  static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** {@code node} with every text and field name escaped for a terminal. */
  static JsonNode printable(JsonNode node) {
    if (node.isTextual()) {
      String safe = TerminalText.escape(node.textValue());
      return safe.equals(node.textValue()) ? node : TextNode.valueOf(safe);
    }
    if (node.isArray()) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode(node.size());
      node.forEach(e -> out.add(printable(e)));
      return out;
    }
    if (node.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        out.set(TerminalText.escape(f.getKey()), printable(f.getValue()));
      }
      return out;
    }
    return node;
  }

  /** The text at {@code path} (e.g. a snapshot's YAML); any answer but 200 is an error. */
  String getText(String path) throws AdminError {
    Answer r = send(path, false);
    if (r.statusCode() != 200) {
      throw new AdminError(base + path + ": HTTP " + r.statusCode() + ": " + r.body().strip());
    }
    return r.body();
  }

  /**
   * POSTs to {@code path} without a body and returns its JSON; an {@link AdminError} with the API's
   * error otherwise.
   */
  JsonNode post(String path) throws AdminError {
    Answer r = send(path, true);
    JsonNode body;
    try {
      body = JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AdminError(base + path + " answered " + r.statusCode() + " without JSON");
    }
    if (r.statusCode() != 200) {
      throw new AdminError(body.path("error").asText(base + path + " answered " + r.statusCode()));
    }
    return printable(body);
  }

  private Answer send(String path, boolean post) throws AdminError {
    URL url;
    try {
      URI uri = URI.create(base + path);
      if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())) {
        throw new IllegalArgumentException("not http");
      }
      url = uri.toURL();
    } catch (IllegalArgumentException | MalformedURLException e) {
      throw new AdminError("--admin: not a URL: " + base);
    }
    HttpURLConnection c = null;
    try {
      c = (HttpURLConnection) url.openConnection();
      c.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
      c.setReadTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
      c.setUseCaches(false);
      c.setInstanceFollowRedirects(false);
      // One request per command: no connection kept for a retry (a POST must not be sent twice).
      c.setRequestProperty("Connection", "close");
      if (token != null) {
        c.setRequestProperty("Authorization", "Bearer " + token);
      }
      if (post) {
        c.setRequestMethod("POST");
        // Buffered, not streamed: in streaming mode a 401 leaves no error body to read.
        c.setDoOutput(true);
        c.getOutputStream().close();
      }
      int status = c.getResponseCode();
      InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
      String body;
      if (in == null) {
        body = "";
      } else {
        try (in) {
          body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      }
      return new Answer(status, body);
    } catch (IOException e) {
      throw new AdminError(
          "cannot reach the scheduler's admin API at "
              + base
              + " ("
              + e
              + "); is `caldera run` up? (--admin URL or CALDERA_ADMIN_URL)");
    } finally {
      if (c != null) {
        c.disconnect();
      }
    }
  }
}
