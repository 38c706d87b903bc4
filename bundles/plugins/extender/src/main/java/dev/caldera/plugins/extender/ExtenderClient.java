package dev.caldera.plugins.extender;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends JSON requests to an extender with HTTP POST and reads the JSON answers: a timeout over the
 * whole exchange (body included), only status 200 accepted, and at most {@value #MAX_BODY_BYTES}
 * bytes of response body. Thread-safe; calls block the calling thread.
 */
final class ExtenderClient {

  /** Volcano's limit on a response body: 10 MiB. */
  static final int MAX_BODY_BYTES = 10 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String urlPrefix;
  private final Duration timeout;

  /**
   * @param urlPrefix the extender's base URL
   * @param timeout the limit per call; zero means none
   */
  ExtenderClient(String urlPrefix, Duration timeout) {
    this.urlPrefix = urlPrefix;
    this.timeout = timeout;
  }

  /**
   * POSTs {@code body} to {@code <urlPrefix>/<verb>} and returns the decoded answer.
   *
   * @param readBody whether the answer matters; if not, the body is discarded and null returned
   * @return the answer's JSON value; a JSON {@code null} answer gives a {@code NullNode}
   * @throws ExtenderException if the call fails in any way
   */
  JsonNode post(String verb, byte[] body, boolean readBody) throws ExtenderException {
    String url = ExtenderArguments.url(urlPrefix, verb);
    HttpRequest request;
    try {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(url))
              .POST(HttpRequest.BodyPublishers.ofByteArray(body))
              .header("Content-Type", "application/json");
      if (!timeout.isZero()) {
        b.timeout(timeout);
      }
      request = b.build();
    } catch (IllegalArgumentException e) {
      throw new ExtenderException("invalid extender URL " + url + ": " + e.getMessage(), e);
    }
    HttpResponse.BodyHandler<byte[]> handler =
        info ->
            info.statusCode() == 200 && readBody
                ? new LimitedBodySubscriber(MAX_BODY_BYTES)
                : HttpResponse.BodySubscribers.replacing(null);
    CompletableFuture<HttpResponse<byte[]>> future =
        SharedHttpClient.get().sendAsync(request, handler);
    HttpResponse<byte[]> response;
    try {
      response =
          timeout.isZero() ? future.get() : future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new ExtenderException(
          "POST " + url + ": timed out after " + timeout.toMillis() + "ms", e);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new ExtenderException("POST " + url + ": interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new ExtenderException("POST " + url + ": " + describe(cause), cause);
    }
    if (response.statusCode() != 200) {
      throw new ExtenderException(
          "failed " + verb + " with extender at URL " + url + ", code " + response.statusCode());
    }
    if (!readBody) {
      return null;
    }
    byte[] bytes = response.body();
    JsonNode node;
    try {
      node = JSON.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new ExtenderException(
          "POST " + url + ": malformed JSON response: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ExtenderException("POST " + url + ": unreadable response: " + describe(e), e);
    }
    if (node == null || node.isMissingNode()) {
      throw new ExtenderException("POST " + url + ": empty response");
    }
    return node;
  }

  private static String describe(Throwable t) {
    String message = t.getMessage();
    return message == null || message.isEmpty() ? t.getClass().getSimpleName() : message;
  }

  /**
   * One HTTP client for every extender instance: plugins are made afresh for every session, and a
   * client per instance would leave a selector thread behind each time.
   */
  private static final class SharedHttpClient {
    private static final HttpClient CLIENT =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();

    static HttpClient get() {
      return CLIENT;
    }
  }
}
