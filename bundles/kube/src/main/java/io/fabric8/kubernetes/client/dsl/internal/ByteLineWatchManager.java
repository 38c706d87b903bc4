package io.fabric8.kubernetes.client.dsl.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.DefaultSharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.ListerWatcher;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * fabric8's HTTP watch with the stream split into events on its bytes.
 *
 * <p>fabric8's {@link WatchHTTPManager} decodes each chunk of a watch stream to characters and
 * appends them one by one to a {@code StringBuffer}, a synchronized call per character: on a real
 * API server at 300 pods/s this was 7% of the scheduler's CPU (docs/performance.md). This manager
 * keeps everything else of fabric8's watch (reconnects, backoff, the resource version, statuses and
 * bookmarks, flow control), and only finds the newline bytes itself: a line is decoded once, whole,
 * so a character whose bytes straddle two chunks is also read right.
 *
 * <p>It lives in fabric8's package because the watch's state and its end are package-private there;
 * the kube bundle embeds the fabric8 jars, so both are loaded by one class loader. On a fabric8
 * upgrade, compare {@link #start} with {@code WatchHTTPManager#start} (7.8.0 and 8.0.0 split lines
 * the same way) and run ByteLineWatchManagerTest and the real-cluster suite.
 */
public final class ByteLineWatchManager<T extends HasMetadata, L extends KubernetesResourceList<T>>
    extends WatchHTTPManager<T, L> {

  private static final byte NEWLINE = '\n';

  // Set by start, which the super constructor already calls: no initializers here.
  private CompletableFuture<HttpResponse<AsyncBody>> call;
  private volatile AsyncBody body;

  ByteLineWatchManager(
      HttpClient client,
      BaseOperation<T, L, ?> operation,
      ListOptions options,
      Watcher<T> watcher,
      int reconnectInterval,
      int reconnectLimit)
      throws MalformedURLException {
    super(client, operation, options, watcher, reconnectInterval, reconnectLimit);
  }

  /**
   * An informer on {@code operation} (as its {@code runnableInformer(0)}) whose watches, when the
   * client's config asks for HTTP watches only, are this class; with WebSocket watches allowed it
   * is fabric8's own.
   */
  public static <T extends HasMetadata, L extends KubernetesResourceList<T>>
      SharedIndexInformer<T> informer(BaseOperation<T, L, ?> operation) {
    BaseOperation<T, L, ?> source = operation.withResourceVersion(null);
    ListerWatcher<T, L> listerWatcher =
        new ListerWatcher<>() {
          @Override
          public CompletableFuture<AbstractWatchManager<T>> submitWatch(
              ListOptions options, Watcher<T> watcher) {
            if (!source.getConfig().isOnlyHttpWatches()) {
              return source.submitWatch(options, watcher);
            }
            return CompletableFuture.completedFuture(watch(source, options, watcher));
          }

          @Override
          public CompletableFuture<L> submitList(ListOptions options) {
            return source.submitList(options);
          }

          @Override
          public Long getLimit() {
            return source.getLimit();
          }

          @Override
          public int getWatchReconnectInterval() {
            return source.getWatchReconnectInterval();
          }

          @Override
          public String getApiEndpointPath() {
            return source.getApiEndpointPath();
          }

          @Override
          public io.fabric8.kubernetes.client.Config getConfig() {
            return source.getConfig();
          }
        };
    return new DefaultSharedIndexInformer<>(
        source.getType(), listerWatcher, 0, source.getOperationContext().getExecutor());
  }

  /** What {@code BaseOperation#submitWatch} does for an HTTP watch, with this manager. */
  private static <T extends HasMetadata, L extends KubernetesResourceList<T>>
      AbstractWatchManager<T> watch(
          BaseOperation<T, L, ?> operation, ListOptions options, Watcher<T> watcher) {
    options.setWatch(Boolean.TRUE);
    OperationContext context = operation.getOperationContext();
    if (context.getFieldQueryParam() != null) {
      options.setFieldSelector(context.getFieldQueryParam());
    }
    if (context.getLabelQueryParam() != null) {
      options.setLabelSelector(context.getLabelQueryParam());
    }
    if (context.getShardSelector() != null) {
      options.setShardSelector(context.getShardSelector());
    }
    try {
      return new ByteLineWatchManager<>(
          operation.httpClient,
          operation,
          options,
          watcher,
          operation.getRequestConfig().getWatchReconnectInterval(),
          operation.getRequestConfig().getWatchReconnectLimit());
    } catch (MalformedURLException e) {
      throw KubernetesClientException.launderThrowable(operation.forOperationType("watch"), e);
    }
  }

  @Override
  protected synchronized void start(URL url, Map<String, String> headers, WatchRequestState state) {
    HttpRequest.Builder builder = client.newHttpRequestBuilder().url(url).forStreaming();
    headers.forEach(builder::header);
    Lines lines = new Lines();
    call =
        client.consumeBytes(
            builder.build(), (buffers, asyncBody) -> deliver(buffers, asyncBody, lines, state));
    call.whenComplete(
        (response, failure) -> {
          if (failure != null) {
            watchEnded(failure, state);
          }
          if (response != null) {
            body = response.body();
            if (!response.isSuccessful()) {
              Status status = OperationSupport.createStatus(response.code(), response.message());
              if (!onStatus(status, state)) {
                watchEnded(new KubernetesClientException(status), state);
              }
            } else {
              resetReconnectAttempts(state);
              body.consume();
              body.done().whenComplete((done, ended) -> watchEnded(ended, state));
            }
          }
        });
  }

  /**
   * Hands each whole line of {@code buffers} to fabric8's event handling, and asks for the next
   * chunk once every event of this one is handled (fabric8's flow control).
   */
  private void deliver(
      List<ByteBuffer> buffers, AsyncBody asyncBody, Lines lines, WatchRequestState state) {
    state.started.set(true);
    AtomicInteger unhandled = new AtomicInteger(1);
    Runnable handled =
        () -> {
          if (unhandled.decrementAndGet() == 0) {
            asyncBody.consume();
          }
        };
    for (ByteBuffer buffer : buffers) {
      lines.append(buffer);
      String line;
      while ((line = lines.next()) != null) {
        unhandled.incrementAndGet();
        onMessage(line, state, handled);
      }
    }
    handled.run();
  }

  @Override
  protected synchronized void closeCurrentRequest() {
    if (call != null) {
      call.cancel(true);
    }
    AsyncBody current = body;
    if (current != null) {
      current.cancel();
    }
  }

  /** The bytes of a stream not yet handed on, cut at newlines. */
  static final class Lines {
    private byte[] bytes = new byte[8192];
    private int start;
    private int end;
    private int scanned;

    void append(ByteBuffer buffer) {
      int n = buffer.remaining();
      if (end + n > bytes.length) {
        int kept = end - start;
        if (kept + n > bytes.length) {
          bytes = Arrays.copyOfRange(bytes, start, Math.max(2 * bytes.length, kept + n));
        } else {
          System.arraycopy(bytes, start, bytes, 0, kept);
        }
        scanned -= start;
        start = 0;
        end = kept;
      }
      buffer.get(bytes, end, n);
      end += n;
    }

    /** The next whole line without its newline (empty lines skipped), or null until more comes. */
    String next() {
      while (scanned < end) {
        if (bytes[scanned++] == NEWLINE) {
          int from = start;
          int length = scanned - 1 - from;
          start = scanned;
          if (length > 0) {
            return new String(bytes, from, length, StandardCharsets.UTF_8);
          }
        }
      }
      if (start == end) {
        start = 0;
        end = 0;
        scanned = 0;
      }
      return null;
    }
  }
}
