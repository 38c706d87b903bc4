package dev.caldera.runtime.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Heap figures for the benchmark summary, from the heap memory pools. The peak is the sum of each
 * heap pool's peak usage since the last {@link #settleAndResetPeaks()}.
 */
final class HeapMeter {

  private HeapMeter() {}

  /**
   * Runs a full garbage collection, then starts measuring peaks from here.
   *
   * @return the heap in use after the collection, in bytes
   */
  static long settleAndResetPeaks() {
    System.gc();
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        used += pool.getUsage().getUsed();
        pool.resetPeakUsage();
      }
    }
    return used;
  }

  /** Runs a full garbage collection and returns the heap pools' summed peak usage, in bytes. */
  static long peakAfterGc() {
    System.gc();
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
