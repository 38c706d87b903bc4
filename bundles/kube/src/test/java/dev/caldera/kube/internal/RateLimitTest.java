package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.Test;

/** The client's token bucket: burst tokens at once, lease requests exempt. */
class RateLimitTest {

  private final HttpClient http = client();

  private static HttpClient client() {
    HttpClient.Builder builder = new JdkHttpClientFactory().newBuilder();
    return builder.build();
  }

  private HttpRequest request(String path) {
    return http.newHttpRequestBuilder().uri("https://127.0.0.1:6443" + path).build();
  }

  @Test
  void aRequestTakesOneToken_theBurstIsTheBucket() {
    // One token per hour: nothing refills during the test.
    RateLimit limit = new RateLimit(1.0 / 3600, 3);
    assertThat(limit.available()).isEqualTo(3);

    limit.before(null, request("/api/v1/namespaces/ns/pods/p/binding"), null);
    limit.before(null, request("/api/v1/pods"), null);

    assertThat(limit.available()).isEqualTo(1);
  }

  @Test
  void leaseRequestsAreNotLimited() {
    RateLimit limit = new RateLimit(1.0 / 3600, 1);
    for (int i = 0; i < 5; i++) {
      limit.before(
          null,
          request(
              "/apis/coordination.k8s.io/v1/namespaces/caldera-system/leases/caldera-scheduler"),
          null);
    }
    assertThat(limit.available()).isEqualTo(1);
  }

  @Test
  void qpsAndBurstMustBePositive() {
    assertThatThrownBy(() -> new RateLimit(0, 10)).hasMessageContaining("qps > 0");
    assertThatThrownBy(() -> new RateLimit(10, 0)).hasMessageContaining("burst >= 1");
  }
}
