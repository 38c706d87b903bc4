package dev.caldera.plugins.nodeorder;

/**
 * kube-scheduler's NodeResourcesFit (LeastAllocated, MostAllocated) and
 * NodeResourcesBalancedAllocation scores, with Volcano's resource weights: LeastAllocated cpu 50 /
 * memory 50, MostAllocated cpu 1 / memory 1, BalancedAllocation over cpu, memory and {@code
 * nvidia.com/gpu}. A resource whose allocatable is 0 is left out.
 */
final class ResourceScores {

  private static final long MAX = Normalize.MAX_NODE_SCORE;

  private ResourceScores() {}

  /** LeastAllocated: free share after placing the pod, with non-zero default requests. */
  static long leastAllocated(PodRequest pod, NodeState node) {
    long score = 0;
    long weights = 0;
    if (node.allocMilliCpu != 0) {
      score +=
          leastRequested(node.nonZeroMilliCpu + pod.nonZeroMilliCpu(), node.allocMilliCpu) * 50;
      weights += 50;
    }
    if (node.allocMemory != 0) {
      score += leastRequested(node.nonZeroMemory + pod.nonZeroMemory(), node.allocMemory) * 50;
      weights += 50;
    }
    return weights == 0 ? 0 : score / weights;
  }

  /** MostAllocated: used share after placing the pod, with non-zero default requests. */
  static long mostAllocated(PodRequest pod, NodeState node) {
    long score = 0;
    long weights = 0;
    if (node.allocMilliCpu != 0) {
      score += mostRequested(node.nonZeroMilliCpu + pod.nonZeroMilliCpu(), node.allocMilliCpu);
      weights++;
    }
    if (node.allocMemory != 0) {
      score += mostRequested(node.nonZeroMemory + pod.nonZeroMemory(), node.allocMemory);
      weights++;
    }
    return weights == 0 ? 0 : score / weights;
  }

  static long leastRequested(long requested, long capacity) {
    if (capacity == 0 || requested > capacity) {
      return 0;
    }
    return (capacity - requested) * MAX / capacity;
  }

  static long mostRequested(long requested, long capacity) {
    if (capacity == 0) {
      return 0;
    }
    return Math.min(requested, capacity) * MAX / capacity;
  }

  /**
   * BalancedAllocation: {@code int((1 − std) · 100)} over the fractions {@code min(requested /
   * allocatable, 1)} of cpu, memory and (when the pod requests it and the node has it) gpu, using
   * actual requests; {@code std} is {@code |f1 − f2| / 2} for two fractions and the population
   * standard deviation for three.
   */
  static long balanced(PodRequest pod, NodeState node) {
    double a = 0;
    double b = 0;
    double c = 0;
    int count = 0;
    if (node.allocMilliCpu != 0) {
      a = fraction(node.milliCpu + pod.milliCpu(), node.allocMilliCpu);
      count++;
    }
    if (node.allocMemory != 0) {
      double f = fraction(node.memory + pod.memory(), node.allocMemory);
      if (count == 0) {
        a = f;
      } else {
        b = f;
      }
      count++;
    }
    if (pod.gpu() != 0 && node.allocGpu != 0) {
      double f = fraction(node.gpu + pod.gpu(), node.allocGpu);
      if (count == 0) {
        a = f;
      } else if (count == 1) {
        b = f;
      } else {
        c = f;
      }
      count++;
    }
    double std = 0;
    if (count == 2) {
      std = Math.abs((a - b) / 2);
    } else if (count == 3) {
      double mean = (a + b + c) / 3;
      double sum = (a - mean) * (a - mean);
      sum = sum + (b - mean) * (b - mean);
      sum = sum + (c - mean) * (c - mean);
      std = Math.sqrt(sum / 3);
    }
    return (long) ((1 - std) * (double) MAX);
  }

  private static double fraction(long requested, long allocatable) {
    double f = (double) requested / (double) allocatable;
    return f > 1 ? 1 : f;
  }
}
