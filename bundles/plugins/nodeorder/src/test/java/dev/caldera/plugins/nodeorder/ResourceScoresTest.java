package dev.caldera.plugins.nodeorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.testkit.FakeNode;
import org.junit.jupiter.api.Test;

class ResourceScoresTest {

  private static final long GI = 1024L * 1024 * 1024;

  private static NodeState node(String cpu, String memory) {
    return new NodeState(new FakeNode("n").allocatable("cpu", cpu, "memory", memory), null);
  }

  private static PodRequest request(long milliCpu, long memory) {
    return new PodRequest(milliCpu, memory, 0, milliCpu, memory);
  }

  @Test
  void leastAllocated_averagesFreeSharesWithIntegerDivision() {
    NodeState n = node("4", "16Gi");
    n.nonZeroMilliCpu = 3000;
    n.nonZeroMemory = 12 * GI;
    // cpu (4000 − 4000)·100/4000 = 0; memory 3Gi·100/16Gi = 18 (18.75); (0·50 + 18·50)/100 = 9.
    assertThat(ResourceScores.leastAllocated(request(1000, GI), n)).isEqualTo(9);
    // Empty node: cpu 75, memory 93 (93.75) → 84.
    assertThat(ResourceScores.leastAllocated(request(1000, GI), node("4", "16Gi"))).isEqualTo(84);
  }

  @Test
  void leastAllocated_overcommittedResourceScoresZero() {
    NodeState n = node("1", "1Gi");
    // cpu 2000 > 1000 → 0; memory (1Gi − 0.5Gi) → 50; average 25.
    assertThat(ResourceScores.leastAllocated(request(2000, GI / 2), n)).isEqualTo(25);
  }

  @Test
  void leastAllocated_resourceWithoutAllocatable_isLeftOut() {
    NodeState n = new NodeState(new FakeNode("n").allocatable("cpu", "4"), null);
    assertThat(ResourceScores.leastAllocated(request(1000, GI), n)).isEqualTo(75);
  }

  @Test
  void mostAllocated_volcanoScenario_prefersTheSmallerNode() {
    // nodeorder/most-allocated.yaml: pod 1 cpu / 1G on 2 cpu / 4Gi and 4 cpu / 8Gi.
    PodRequest pod = request(1000, 1_000_000_000L);
    // cpu 50, memory 1e9·100/4Gi = 23 → (50 + 23)/2 = 36.
    assertThat(ResourceScores.mostAllocated(pod, node("2", "4Gi"))).isEqualTo(36);
    // cpu 25, memory 11 → 18.
    assertThat(ResourceScores.mostAllocated(pod, node("4", "8Gi"))).isEqualTo(18);
  }

  @Test
  void mostAllocated_capsRequestsAtCapacity() {
    assertThat(ResourceScores.mostAllocated(request(8000, 8 * GI), node("4", "4Gi")))
        .isEqualTo(100);
  }

  @Test
  void balanced_volcanoScenario_prefersTheBalancedNode() {
    // nodeorder/balanced-allocation.yaml: pod 1 cpu / 1Gi on 2 cpu / 2Gi and 4 cpu / 2Gi.
    PodRequest pod = request(1000, GI);
    assertThat(ResourceScores.balanced(pod, node("2", "2Gi"))).isEqualTo(100);
    // fractions 0.25 and 0.5: std 0.125 → 87.
    assertThat(ResourceScores.balanced(pod, node("4", "2Gi"))).isEqualTo(87);
  }

  @Test
  void balanced_usesActualRequestsOfTheNode() {
    NodeState n = node("4", "4Gi");
    n.milliCpu = 1000;
    n.memory = 3 * GI;
    n.nonZeroMilliCpu = 4000;
    // fractions cpu 2/4 = 0.5, memory 4/4 = 1: std 0.25 → 75.
    assertThat(ResourceScores.balanced(request(1000, GI), n)).isEqualTo(75);
  }

  @Test
  void balanced_withGpu_usesThePopulationStandardDeviation() {
    NodeState n =
        new NodeState(
            new FakeNode("n").allocatable("cpu", "4", "memory", "4Gi", "nvidia.com/gpu", "4"),
            null);
    PodRequest pod = new PodRequest(1000, 2 * GI, 3, 1000, 2 * GI);
    // fractions 0.25, 0.5, 0.75: mean 0.5, std sqrt((0.0625 + 0 + 0.0625)/3) = 0.2041 → 79.
    assertThat(ResourceScores.balanced(pod, n)).isEqualTo(79);
    // Without a gpu request the gpu is left out: |0.25 − 0.5|/2 → 87.
    assertThat(ResourceScores.balanced(request(1000, 2 * GI), n)).isEqualTo(87);
  }

  @Test
  void balanced_gpuRequestOnNodeWithoutGpu_isLeftOut() {
    PodRequest pod = new PodRequest(1000, GI, 1, 1000, GI);
    assertThat(ResourceScores.balanced(pod, node("4", "2Gi"))).isEqualTo(87);
  }
}
