package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A pod's requests as kube-scheduler's resource scorers read them ({@code
 * resourcehelper.PodRequests} over the pod's containers): regular containers summed, then the max
 * with each init container (restartable sidecars accumulating), then the overhead. Units are
 * Kubernetes' integer ones: cpu in milli-cores, memory in bytes, {@code nvidia.com/gpu} in whole
 * devices.
 *
 * @param milliCpu the actual cpu request (BalancedAllocation and the node's {@code Requested})
 * @param memory the actual memory request
 * @param gpu the actual {@code nvidia.com/gpu} request
 * @param nonZeroMilliCpu the cpu request with 100m for each container that sets none
 *     (Least/MostAllocated and the node's {@code NonZeroRequested})
 * @param nonZeroMemory the memory request with 200Mi for each container that sets none
 */
record PodRequest(long milliCpu, long memory, long gpu, long nonZeroMilliCpu, long nonZeroMemory) {

  static final String CPU = "cpu";
  static final String MEMORY = "memory";
  static final String GPU = "nvidia.com/gpu";

  /** kube-scheduler's {@code DefaultMilliCPURequest}, in cores. */
  private static final BigDecimal DEFAULT_CPU = new BigDecimal("0.1");

  /** kube-scheduler's {@code DefaultMemoryRequest}: 200Mi. */
  private static final BigDecimal DEFAULT_MEMORY = BigDecimal.valueOf(200L * 1024 * 1024);

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  /** Computes the requests of {@code pod}. */
  static PodRequest of(Pod pod) {
    return new PodRequest(
        milli(total(pod, CPU, null)),
        whole(total(pod, MEMORY, null)),
        whole(total(pod, GPU, null)),
        milli(total(pod, CPU, DEFAULT_CPU)),
        whole(total(pod, MEMORY, DEFAULT_MEMORY)));
  }

  // Written out: a record's generated equals and hashCode are linked through method handles on
  // first use and run slower on the first JIT tier the launcher uses; this is nodeorder's locality
  // key, which allocate hashes once per task.
  @Override
  public boolean equals(Object o) {
    return o instanceof PodRequest r
        && milliCpu == r.milliCpu
        && memory == r.memory
        && gpu == r.gpu
        && nonZeroMilliCpu == r.nonZeroMilliCpu
        && nonZeroMemory == r.nonZeroMemory;
  }

  @Override
  public int hashCode() {
    int h = Long.hashCode(milliCpu);
    h = 31 * h + Long.hashCode(memory);
    h = 31 * h + Long.hashCode(gpu);
    h = 31 * h + Long.hashCode(nonZeroMilliCpu);
    return 31 * h + Long.hashCode(nonZeroMemory);
  }

  /** Whether BalancedAllocation's PreScore skips the pod: no cpu, memory or gpu request. */
  boolean bestEffortForBalance() {
    return milliCpu == 0 && memory == 0 && gpu == 0;
  }

  private static BigDecimal total(Pod pod, String name, BigDecimal missingDefault) {
    BigDecimal sum = BigDecimal.ZERO;
    for (Container c : pod.containers()) {
      sum = sum.add(request(c, name, missingDefault));
    }
    BigDecimal sidecars = BigDecimal.ZERO;
    BigDecimal initMax = BigDecimal.ZERO;
    for (Container c : pod.initContainers()) {
      BigDecimal request = request(c, name, missingDefault);
      BigDecimal candidate;
      if ("Always".equals(c.restartPolicy())) {
        sum = sum.add(request);
        sidecars = sidecars.add(request);
        candidate = sidecars;
      } else {
        candidate = request.add(sidecars);
      }
      initMax = initMax.max(candidate);
    }
    sum = sum.max(initMax);
    Quantity overhead = pod.overhead().get(name);
    return overhead == null ? sum : sum.add(overhead.amount());
  }

  private static BigDecimal request(Container c, String name, BigDecimal missingDefault) {
    Quantity q = c.requests().get(name);
    if (q != null) {
      return q.amount();
    }
    return missingDefault == null ? BigDecimal.ZERO : missingDefault;
  }

  private static long milli(BigDecimal amount) {
    return amount.multiply(THOUSAND).setScale(0, RoundingMode.CEILING).longValue();
  }

  private static long whole(BigDecimal amount) {
    return amount.setScale(0, RoundingMode.CEILING).longValue();
  }
}
