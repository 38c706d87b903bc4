package dev.caldera.kube.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the informers and writers have done since start (what {@code KubeCluster#counters()} shows),
 * incremented by them. Every value only grows, except {@link #writesInFlight()}.
 */
public final class Counters {

  final LongAdder bindsSucceeded = new LongAdder();
  final LongAdder bindsFailed = new LongAdder();
  final LongAdder bindsDropped = new LongAdder();
  final LongAdder bindsRefused = new LongAdder();
  final LongAdder evictionsSucceeded = new LongAdder();
  final LongAdder evictionsFailed = new LongAdder();
  final LongAdder statusWrites = new LongAdder();
  final LongAdder statusWriteFailures = new LongAdder();
  final LongAdder eventsWritten = new LongAdder();
  final LongAdder eventsDropped = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder watchErrors = new LongAdder();
  final LongAdder writesInFlight = new LongAdder();

  public long bindsSucceeded() {
    return bindsSucceeded.sum();
  }

  public long bindsFailed() {
    return bindsFailed.sum();
  }

  public long bindsRefused() {
    return bindsRefused.sum();
  }

  public long bindsDropped() {
    return bindsDropped.sum();
  }

  public long evictionsSucceeded() {
    return evictionsSucceeded.sum();
  }

  public long evictionsFailed() {
    return evictionsFailed.sum();
  }

  public long statusWrites() {
    return statusWrites.sum();
  }

  public long statusWriteFailures() {
    return statusWriteFailures.sum();
  }

  public long eventsWritten() {
    return eventsWritten.sum();
  }

  public long eventsDropped() {
    return eventsDropped.sum();
  }

  public long retries() {
    return retries.sum();
  }

  public long watchErrors() {
    return watchErrors.sum();
  }

  public long writesInFlight() {
    return writesInFlight.sum();
  }
}
