package dev.caldera.kube.internal;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.time.Duration;

/**
 * The client's request rate, as client-go's {@code --kube-api-qps} and {@code --kube-api-burst}: a
 * token bucket of {@code burst} tokens refilled at {@code qps} per second; every request takes one
 * before it is sent, and waits for it when the bucket is empty. Lease requests are not limited, so
 * a flood of binds never delays the leader's renewal past its deadline (kube-scheduler gives leader
 * election a client of its own for the same reason).
 */
final class RateLimit implements Interceptor {

  private static final String LEASES = "/apis/coordination.k8s.io/";

  private final Bucket bucket;

  RateLimit(double qps, int burst) {
    if (!(qps > 0) || burst < 1) {
      throw new IllegalArgumentException(
          "the API rate needs qps > 0 and burst >= 1, got qps " + qps + ", burst " + burst);
    }
    long refillNanos = Math.max(1, Math.round(1e9 / qps));
    this.bucket =
        Bucket.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(burst)
                    .refillGreedy(1, Duration.ofNanos(refillNanos))
                    .build())
            .withNanosecondPrecision()
            .build();
  }

  /** Takes a token for {@code request}, waiting as long as it takes. */
  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (request.uri().getPath().startsWith(LEASES)) {
      return;
    }
    bucket.asBlocking().consumeUninterruptibly(1);
  }

  /** Tokens left now (tests). */
  long available() {
    return bucket.getAvailableTokens();
  }

  /** fabric8's JDK HTTP client with this limit on every client it builds. */
  static HttpClient.Factory factory(double qps, int burst) {
    return withInterceptor(
        new JdkHttpClientFactory(), "caldera-rate-limit", new RateLimit(qps, burst));
  }

  /** {@code base} with {@code interceptor} (under {@code name}) on every client it builds. */
  static HttpClient.Factory withInterceptor(
      HttpClient.Factory base, String name, Interceptor interceptor) {
    return new HttpClient.Factory() {
      @Override
      public HttpClient.Builder newBuilder(Config config) {
        return base.newBuilder(config).addOrReplaceInterceptor(name, interceptor);
      }

      @Override
      public HttpClient.Builder newBuilder() {
        return base.newBuilder().addOrReplaceInterceptor(name, interceptor);
      }
    };
  }
}
