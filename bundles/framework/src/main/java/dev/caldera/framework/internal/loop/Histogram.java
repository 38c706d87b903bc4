package dev.caldera.framework.internal.loop;

import dev.caldera.framework.loop.LoopMetrics;
import java.util.ArrayList;
import java.util.List;

/** A Prometheus-style histogram with fixed bucket bounds. Not thread-safe. */
final class Histogram {

  private final double[] bounds;
  private final long[] counts;
  private long total;
  private double sum;

  Histogram(double... bounds) {
    this.bounds = bounds.clone();
    this.counts = new long[bounds.length];
  }

  void observe(double value) {
    for (int i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        counts[i]++;
        break;
      }
    }
    total++;
    sum += value;
  }

  LoopMetrics.Histogram snapshot() {
    List<Double> b = new ArrayList<>();
    List<Long> cumulative = new ArrayList<>();
    long running = 0;
    for (int i = 0; i < bounds.length; i++) {
      running += counts[i];
      b.add(bounds[i]);
      cumulative.add(running);
    }
    cumulative.add(total);
    return new LoopMetrics.Histogram(b, cumulative, sum);
  }
}
