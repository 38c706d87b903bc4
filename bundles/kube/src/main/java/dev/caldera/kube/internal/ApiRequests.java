package dev.caldera.kube.internal;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The writer's requests: binds ({@code pods/binding}, which fabric8 has no typed call for), status
 * patches and events, sent with the client's own HTTP client (its authentication, TLS and rate
 * limit) so that every answer but 2xx is an error that carries the API server's {@link Status}
 * (fabric8's raw call reports "An error has occurred." and takes a 404 for success), and a
 * successful answer is not parsed.
 */
public final class ApiRequests {

  private ApiRequests() {}

  /** The content type of a JSON merge patch (RFC 7386). */
  static final String MERGE_PATCH = "application/merge-patch+json";

  /**
   * POSTs {@code json} to {@code path} (e.g. {@code /api/v1/namespaces/ns/pods/p/binding}).
   *
   * @throws KubernetesClientException with the server's status on any answer but 2xx, with code 0
   *     when no answer came
   */
  public static void post(KubernetesClient client, String path, String json) {
    send(client, "POST", path, "application/json", json);
  }

  /** Sends {@code patch} as a JSON merge patch to {@code path}; errors as {@link #post}. */
  public static void mergePatch(KubernetesClient client, String path, String patch) {
    send(client, "PATCH", path, MERGE_PATCH, patch);
  }

  /**
   * As {@link #mergePatch}, and reads the answer for the object's {@code metadata.resourceVersion}
   * (null if it has none), for the rare write whose next one is made on that version.
   */
  static String mergePatchForVersion(KubernetesClient client, String path, String patch) {
    String body = send(client, "PATCH", path, MERGE_PATCH, patch);
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      ObjectMeta meta =
          client
              .getKubernetesSerialization()
              .unmarshal(body, PartialObjectMetadata.class)
              .getMetadata();
      return meta == null ? null : meta.getResourceVersion();
    } catch (RuntimeException notAnObject) {
      return null;
    }
  }

  /**
   * The body of {@code GET path} (e.g. a discovery document such as {@code /apis/bus.volcano.sh}),
   * or null on 404.
   *
   * @throws KubernetesClientException on any other answer but 2xx, or none
   */
  static String getOrNull(KubernetesClient client, String path) {
    HttpClient http = client.getHttpClient();
    String base = client.getMasterUrl().toString();
    String uri = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(uri)
            .timeout(
                Math.max(1, client.getConfiguration().getRequestTimeout()), TimeUnit.MILLISECONDS)
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new KubernetesClientException("GET " + path + ": " + cause, cause);
    }
    if (response.code() == 404) {
      return null;
    }
    if (response.isSuccessful()) {
      return response.body();
    }
    throw new KubernetesClientException("GET " + path, response.code(), status(client, response));
  }

  /**
   * Sends one write and returns the answer's body unparsed: the scheduler's writes need nothing
   * back, and parsing the object the server returns cost more CPU than sending the write (issue
   * 12).
   */
  private static String send(
      KubernetesClient client, String method, String path, String contentType, String body) {
    HttpClient http = client.getHttpClient();
    String base = client.getMasterUrl().toString();
    String uri = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(uri)
            .timeout(
                Math.max(1, client.getConfiguration().getRequestTimeout()), TimeUnit.MILLISECONDS)
            .method(method, contentType, body)
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new KubernetesClientException(method + " " + path + ": " + cause, cause);
    }
    if (response.isSuccessful()) {
      return response.body();
    }
    throw new KubernetesClientException(
        method + " " + path, response.code(), status(client, response));
  }

  /** The server's Status from the body, or one made of the HTTP status line. */
  private static Status status(KubernetesClient client, HttpResponse<String> response) {
    String body = response.body();
    if (body != null && !body.isBlank()) {
      try {
        Status s = client.getKubernetesSerialization().unmarshal(body, Status.class);
        if (s != null && (s.getMessage() != null || s.getReason() != null)) {
          if (s.getCode() == null) {
            s.setCode(response.code());
          }
          return s;
        }
      } catch (RuntimeException notAStatus) {
        // Not JSON (a proxy's error page): the text itself is the message below.
      }
    }
    return new StatusBuilder()
        .withCode(response.code())
        .withMessage(body == null || body.isBlank() ? response.message() : body.strip())
        .build();
  }
}
