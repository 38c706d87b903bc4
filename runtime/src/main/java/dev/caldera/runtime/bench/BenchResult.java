package dev.caldera.runtime.bench;

import java.util.List;

/**
 * A benchmark run: one measurement per session and the summary.
 *
 * @param totalMillis sum of the sessions' wall times
 * @param podsPending pods still waiting for a node after the last session
 * @param heapAfterSetupBytes heap in use after a full collection, once the cluster was built
 * @param peakHeapBytes peak heap use during the sessions (sum of the heap pools' peaks)
 * @param bindsDigest SHA-256 (first 16 hex digits) of every bind in order: equal runs, equal digest
 */
public record BenchResult(
    Workload workload,
    List<SessionMeasurement> sessions,
    double totalMillis,
    int podsBound,
    double podsPerSecond,
    int podsPending,
    long heapAfterSetupBytes,
    long peakHeapBytes,
    String bindsDigest) {
  public BenchResult {
    sessions = List.copyOf(sessions);
  }
}
