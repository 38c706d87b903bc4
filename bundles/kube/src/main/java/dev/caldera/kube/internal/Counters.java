package dev.caldera.kube.internal;

import dev.caldera.kube.KubeCounters;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link KubeCounters}, incremented by the informers and writers. */
public final class Counters implements KubeCounters {

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

  @Override
  public long bindsSucceeded() {
    return bindsSucceeded.sum();
  }

  @Override
  public long bindsFailed() {
    return bindsFailed.sum();
  }

  @Override
  public long bindsRefused() {
    return bindsRefused.sum();
  }

  @Override
  public long bindsDropped() {
    return bindsDropped.sum();
  }

  @Override
  public long evictionsSucceeded() {
    return evictionsSucceeded.sum();
  }

  @Override
  public long evictionsFailed() {
    return evictionsFailed.sum();
  }

  @Override
  public long statusWrites() {
    return statusWrites.sum();
  }

  @Override
  public long statusWriteFailures() {
    return statusWriteFailures.sum();
  }

  @Override
  public long eventsWritten() {
    return eventsWritten.sum();
  }

  @Override
  public long eventsDropped() {
    return eventsDropped.sum();
  }

  @Override
  public long retries() {
    return retries.sum();
  }

  @Override
  public long watchErrors() {
    return watchErrors.sum();
  }

  @Override
  public long writesInFlight() {
    return writesInFlight.sum();
  }
}
