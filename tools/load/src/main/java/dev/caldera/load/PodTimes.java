package dev.caldera.load;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Per pod of a {@link Workload}: when its create request was sent and when it was first seen bound
 * ({@link System#nanoTime}), and whether the create failed. Written by the creating workers and the
 * pod watch, concurrently; 0 means "not yet".
 */
final class PodTimes {

  private final Workload workload;
  private final AtomicLongArray sent;
  private final AtomicLongArray created;
  private final AtomicLongArray bound;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicReference<String> firstFailure = new AtomicReference<>();

  PodTimes(Workload workload) {
    this.workload = workload;
    this.sent = new AtomicLongArray(workload.pods());
    this.created = new AtomicLongArray(workload.pods());
    this.bound = new AtomicLongArray(workload.pods());
  }

  Workload workload() {
    return workload;
  }

  int size() {
    return workload.pods();
  }

  /** Just before the create request of pod {@code i} goes out. */
  void sent(int i, long nanos) {
    sent.set(i, nonZero(nanos));
  }

  /** The create request of pod {@code i} was answered with success. */
  void created(int i, long nanos) {
    created.set(i, nonZero(nanos));
  }

  /** The create request of pod {@code i} failed for good; {@code why} says how. */
  void failed(int i, String why) {
    failures.incrementAndGet();
    firstFailure.compareAndSet(null, workload.podName(i) + ": " + why);
  }

  /** Pod {@code name} was seen with a node; only the first time counts. */
  void seenBound(String name, long nanos) {
    int i = workload.indexOf(name);
    if (i >= 0) {
      bound.compareAndSet(i, 0, nonZero(nanos));
    }
  }

  long sentAt(int i) {
    return sent.get(i);
  }

  long createdAt(int i) {
    return created.get(i);
  }

  long boundAt(int i) {
    return bound.get(i);
  }

  boolean isCreated(int i) {
    return created.get(i) != 0 || bound.get(i) != 0;
  }

  boolean isBound(int i) {
    return bound.get(i) != 0;
  }

  int createdCount() {
    int n = 0;
    for (int i = 0; i < size(); i++) {
      if (isCreated(i)) {
        n++;
      }
    }
    return n;
  }

  int boundCount() {
    int n = 0;
    for (int i = 0; i < size(); i++) {
      if (isBound(i)) {
        n++;
      }
    }
    return n;
  }

  /** Whether every pod whose create succeeded has been seen bound. */
  boolean allCreatedBound() {
    for (int i = 0; i < size(); i++) {
      if (isCreated(i) && !isBound(i)) {
        return false;
      }
    }
    return true;
  }

  int failures() {
    return failures.get();
  }

  /** The first failed create, naming the pod, or null. */
  String firstFailure() {
    return firstFailure.get();
  }

  private static long nonZero(long nanos) {
    return nanos == 0 ? 1 : nanos;
  }
}
