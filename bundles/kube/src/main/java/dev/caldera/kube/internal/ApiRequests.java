package dev.caldera.kube.internal;

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
 * Requests fabric8 has no typed call for ({@code pods/binding}), sent with the client's own HTTP
 * client (its authentication, TLS and rate limit) so that every answer but 2xx is an error that
 * carries the API server's {@link Status}; fabric8's raw call reports "An error has occurred." and
 * takes a 404 for success.
 */
final class ApiRequests {

  private ApiRequests() {}

  /**
   * POSTs {@code json} to {@code path} (e.g. {@code /api/v1/namespaces/ns/pods/p/binding}).
   *
   * @throws KubernetesClientException with the server's status on any answer but 2xx, with code 0
   *     when no answer came
   */
  static void post(KubernetesClient client, String path, String json) {
    HttpClient http = client.getHttpClient();
    String base = client.getMasterUrl().toString();
    String uri = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(uri)
            .timeout(
                Math.max(1, client.getConfiguration().getRequestTimeout()), TimeUnit.MILLISECONDS)
            .post("application/json", json)
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new KubernetesClientException("POST " + path + ": " + cause, cause);
    }
    if (response.isSuccessful()) {
      return;
    }
    throw new KubernetesClientException("POST " + path, response.code(), status(client, response));
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
