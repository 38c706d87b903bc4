package dev.caldera.kube.internal;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs API writes off the session thread: at most {@code concurrency} at once, in submission order
 * per object key (a later status of a pod group never overtakes an earlier one), each retried with
 * exponential backoff (with jitter) while the error is transient.
 */
public final class WriteQueue implements AutoCloseable {

  /** One API call. */
  @FunctionalInterface
  interface Call {
    void run() throws Exception;
  }

  /** An error worth retrying that the API server did not report as such (e.g. HTTP 429 PDB). */
  static final class TransientException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TransientException(String message) {
      super(message);
    }
  }

  /** A call refused because the queue already holds as many as it may. */
  static final class FullException extends RejectedExecutionException {
    private static final long serialVersionUID = 1L;

    FullException(int limit) {
      super(limit + " writes waiting already");
    }
  }

  /** No limit on the calls waiting (binds and statuses must all go out). */
  private static final int UNBOUNDED = Integer.MAX_VALUE;

  private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

  private final ExecutorService pool;
  private final int maxAttempts;
  private final int maxWaiting;
  private final long initialBackoffMillis;
  private final long maxBackoffMillis;
  private final Counters counters;
  private final Map<String, CompletableFuture<Void>> tails = new HashMap<>();
  private final AtomicInteger pending = new AtomicInteger();
  private final Object idle = new Object();
  private volatile boolean closed;

  public WriteQueue(
      int concurrency,
      int maxAttempts,
      Duration initialBackoff,
      Duration maxBackoff,
      Counters counters) {
    this(concurrency, maxAttempts, initialBackoff, maxBackoff, UNBOUNDED, counters);
  }

  /**
   * A queue that refuses a call ({@link FullException}) while {@code maxWaiting} calls are queued
   * or running.
   */
  public WriteQueue(
      int concurrency,
      int maxAttempts,
      Duration initialBackoff,
      Duration maxBackoff,
      int maxWaiting,
      Counters counters) {
    if (concurrency < 1 || maxAttempts < 1 || maxWaiting < 1) {
      throw new IllegalArgumentException(
          "concurrency, attempts and the calls waiting must be at least 1");
    }
    this.maxWaiting = maxWaiting;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            concurrency,
            r -> {
              Thread t = new Thread(r, "caldera-kube-write-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.maxAttempts = maxAttempts;
    this.initialBackoffMillis = Math.max(1, initialBackoff.toMillis());
    this.maxBackoffMillis = Math.max(initialBackoffMillis, maxBackoff.toMillis());
    this.counters = counters;
  }

  /**
   * Queues {@code call} behind every earlier call for {@code key}. The future completes when the
   * call succeeded, or exceptionally with its last error, or at once with a {@link FullException}
   * when the queue holds its limit.
   */
  CompletableFuture<Void> submit(String key, Call call) {
    CompletableFuture<Void> result = new CompletableFuture<>();
    if (closed) {
      result.completeExceptionally(new RejectedExecutionException("writer closed"));
      return result;
    }
    if (pending.incrementAndGet() > maxWaiting) {
      pending.decrementAndGet();
      result.completeExceptionally(new FullException(maxWaiting));
      return result;
    }
    counters.writesInFlight.increment();
    CompletableFuture<Void> previous;
    synchronized (tails) {
      previous = tails.getOrDefault(key, DONE);
      tails.put(key, result);
    }
    result.whenComplete(
        (v, t) -> {
          synchronized (tails) {
            tails.remove(key, result);
          }
          counters.writesInFlight.decrement();
          if (pending.decrementAndGet() == 0) {
            synchronized (idle) {
              idle.notifyAll();
            }
          }
        });
    previous.whenComplete((v, t) -> attempt(call, 1, result));
    return result;
  }

  /** Waits until nothing is queued or running; false on timeout. */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (idle) {
      while (pending.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(idle, left);
      }
    }
    return true;
  }

  /** The calls queued or running. */
  public int waiting() {
    return pending.get();
  }

  /**
   * Stops at once: the calls still queued are dropped (their futures never complete) and those
   * running are interrupted.
   */
  public void closeNow() {
    closed = true;
    pool.shutdownNow();
  }

  @Override
  public void close() {
    closed = true;
    pool.shutdown();
    try {
      if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** Whether {@code t} is worth another attempt: I/O errors, HTTP 429 and 5xx. */
  static boolean isTransient(Throwable t) {
    t = ApiErrors.cause(t);
    if (t instanceof TransientException) {
      return true;
    }
    if (t instanceof KubernetesClientException k) {
      int code = k.getCode();
      // Code 0: no HTTP answer at all (connection refused, reset, timeout).
      return code == 0 || code == 429 || code >= 500;
    }
    return t instanceof IOException || t instanceof UncheckedIOException;
  }

  /** The delay before attempt {@code n + 1}: doubling from the initial backoff, capped, ±20%. */
  long backoffMillis(int n) {
    long base = initialBackoffMillis << Math.min(n - 1, 20);
    base = Math.min(base, maxBackoffMillis);
    double jitter = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
    return Math.max(1, (long) (base * jitter));
  }

  private void attempt(Call call, int n, CompletableFuture<Void> result) {
    try {
      pool.execute(
          () -> {
            try {
              call.run();
              result.complete(null);
            } catch (Exception e) {
              if (n < maxAttempts && !closed && isTransient(e)) {
                counters.retries.increment();
                CompletableFuture.delayedExecutor(backoffMillis(n), TimeUnit.MILLISECONDS)
                    .execute(() -> attempt(call, n + 1, result));
              } else {
                result.completeExceptionally(e);
              }
            } catch (Error e) {
              result.completeExceptionally(e);
              throw e;
            }
          });
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(e);
    }
  }
}
