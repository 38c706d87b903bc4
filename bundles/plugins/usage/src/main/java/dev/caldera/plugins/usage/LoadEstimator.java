package dev.caldera.plugins.usage;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;

/** The formulas of Volcano's {@code usage/estimator.go}; utilizations are fractions (0.6 = 60%). */
final class LoadEstimator {

  /** Kubernetes' {@code MaxNodeScore}. */
  static final double MAX_NODE_SCORE = 100;

  private LoadEstimator() {}

  /**
   * {@code CalcCompositeUtilization}: {@code (real%/100 · capacity + shadow) / capacity} clamped to
   * [0, 1]; 0 without capacity.
   */
  static double compositeUtilization(double realPercent, double shadow, double capacity) {
    if (capacity <= 0) {
      return 0;
    }
    double composite = (realPercent / 100.0 * capacity + shadow) / capacity;
    return Math.max(0, Math.min(1, composite));
  }

  /** {@code CalcLoadCompositePercentage}: the weighted mean of the two utilizations. */
  static double compositeLoad(double cpu, double memory, int cpuWeight, int memoryWeight) {
    int total = cpuWeight + memoryWeight;
    if (total == 0) {
      return 0;
    }
    return (cpu * cpuWeight + memory * memoryWeight) / total;
  }

  /** {@code CalcAppliedRiskFactor}: the risk factor once the load reaches the threshold, else 1. */
  static double appliedRiskFactor(double load, double threshold, double riskFactor) {
    if (riskFactor < 1.0) {
      return 1.0;
    }
    return load >= threshold ? riskFactor : 1.0;
  }

  /**
   * {@code EstimatePodResource}: {@code (request·requestRatio + (limit − request)·burstRatio) ·
   * risk}, clamped to [0, effective limit], where the effective limit is the limit unless it is
   * missing (≤ 0) or below the request.
   */
  static double estimatePod(
      double request, double limit, double requestRatio, double burstRatio, double risk) {
    request = Math.max(0, request);
    double effectiveLimit = limit <= 0 || limit < request ? request : limit;
    double burst = Math.max(0, effectiveLimit - request);
    double estimate = (request * requestRatio + burst * burstRatio) * risk;
    return Math.max(0, Math.min(effectiveLimit, estimate));
  }

  /** {@code EstimateBestEffortResource}: the configured value times the risk factor. */
  static double estimateBestEffort(double configured, double risk) {
    return Math.max(0, configured) * risk;
  }

  /**
   * {@code CalcNodeScore}: {@code ((1 − cpu)·wc + (1 − mem)·wm) / (wc + wm) · 100 · usageWeight}; 0
   * when the weights sum to 0.
   */
  static double nodeScore(
      double cpu, double memory, int cpuWeight, int memoryWeight, int usageWeight) {
    int total = cpuWeight + memoryWeight;
    if (total == 0) {
      return 0;
    }
    double score = ((1.0 - cpu) * cpuWeight + (1.0 - memory) * memoryWeight) / total;
    return score * MAX_NODE_SCORE * usageWeight;
  }

  /**
   * A pod's cpu (milli) and memory (bytes) request as {@code getPodResourceRequestLimit} sums it:
   * the containers' requests, raised to the largest init container's request. Overhead is not
   * counted.
   */
  static double[] podRequest(Pod pod) {
    double cpu = 0;
    double memory = 0;
    for (Container c : pod.containers()) {
      cpu += milli(c, ResourceNames.CPU);
      memory += units(c, ResourceNames.MEMORY);
    }
    for (Container c : pod.initContainers()) {
      cpu = Math.max(cpu, milli(c, ResourceNames.CPU));
      memory = Math.max(memory, units(c, ResourceNames.MEMORY));
    }
    return new double[] {cpu, memory};
  }

  private static double milli(Container c, String name) {
    Quantity q = c.requests().get(name);
    return q == null ? 0 : q.milliValue();
  }

  private static double units(Container c, String name) {
    Quantity q = c.requests().get(name);
    return q == null ? 0 : q.value();
  }
}
