package dev.caldera.kube.internal;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Sees every answer one client gets to a read (a list or a watch) and tells its listeners of each
 * server error (5xx): the API server, or etcd behind it, is in trouble, and what the informers hold
 * may be behind it. It is the one sign of a watch that fails to come back: fabric8's watch manager
 * re-establishes a broken watch on its own, from its last resourceVersion, and tells the informer
 * nothing. Writes are left to the writer, which retries them and reports a bind whose outcome it
 * cannot know; a request that gets no answer at all is seen by its own caller (the writer, the
 * lease elector), since with retries off fabric8 does not tell interceptors of it. Listeners run on
 * the client's threads and must be quick.
 */
public final class ApiTrouble implements Interceptor {

  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  /** Calls {@code listener} on each server error answering a read. */
  public void listen(Runnable listener) {
    listeners.add(listener);
  }

  @Override
  public void after(
      HttpRequest request,
      HttpResponse<?> response,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (response.code() >= 500 && "GET".equals(request.method())) {
      trouble();
    }
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    if ("GET".equals(request.method())) {
      trouble();
    }
  }

  private void trouble() {
    listeners.forEach(Runnable::run);
  }

  /** {@code base} with this interceptor on every client it builds. */
  public HttpClient.Factory on(HttpClient.Factory base) {
    return RateLimit.withInterceptor(base, "caldera-api-trouble", this);
  }
}
