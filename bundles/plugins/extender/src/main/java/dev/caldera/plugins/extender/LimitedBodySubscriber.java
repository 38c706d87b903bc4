package dev.caldera.plugins.extender;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body as bytes, failing (and cancelling the download) as soon as it grows past
 * a limit, as Go's {@code http.MaxBytesReader} does.
 */
final class LimitedBodySubscriber implements HttpResponse.BodySubscriber<byte[]> {

  /** The body was larger than the limit. */
  static final class TooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    TooLargeException(long limit) {
      super("response body larger than " + limit + " bytes");
    }
  }

  private final long limit;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
  private Flow.Subscription subscription;

  LimitedBodySubscriber(long limit) {
    this.limit = limit;
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      if ((long) buffer.size() + b.remaining() > limit) {
        subscription.cancel();
        result.completeExceptionally(new TooLargeException(limit));
        return;
      }
      byte[] chunk = new byte[b.remaining()];
      b.get(chunk);
      buffer.write(chunk, 0, chunk.length);
    }
  }

  @Override
  public void onError(Throwable throwable) {
    result.completeExceptionally(throwable);
  }

  @Override
  public void onComplete() {
    result.complete(buffer.toByteArray());
  }
}
