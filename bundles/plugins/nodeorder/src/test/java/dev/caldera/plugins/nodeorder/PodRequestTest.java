package dev.caldera.plugins.nodeorder;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Container;
import dev.caldera.testkit.Resources;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodRequestTest {

  private static final long MI = 1024L * 1024;

  private static Container container(String name, String restartPolicy, String... requests) {
    return new Container(name, "", Resources.list(requests), null, restartPolicy);
  }

  @Test
  void of_containerWithoutRequests_getsNonZeroDefaultsOnly() {
    PodRequest r = PodRequest.of(pod("ns/p").build());
    assertThat(r).isEqualTo(new PodRequest(0, 0, 0, 100, 200 * MI));
    assertThat(r.bestEffortForBalance()).isTrue();
  }

  @Test
  void of_defaultsApplyPerContainerAndPerMissingResource() {
    PodRequest r =
        PodRequest.of(
            pod("ns/p")
                .requests("cpu", "500m")
                .container(container("second", null, "memory", "1Gi"))
                .build());
    // main: cpu 500m, memory missing → 200Mi; second: cpu missing → 100m, memory 1Gi.
    assertThat(r).isEqualTo(new PodRequest(500, 1024 * MI, 0, 600, 1224 * MI));
    assertThat(r.bestEffortForBalance()).isFalse();
  }

  @Test
  void of_explicitZeroRequest_isNotDefaulted() {
    PodRequest r = PodRequest.of(pod("ns/p").requests("cpu", "0", "memory", "0").build());
    assertThat(r.nonZeroMilliCpu()).isZero();
    assertThat(r.nonZeroMemory()).isZero();
  }

  @Test
  void of_initContainers_takeTheMaxAndSidecarsAccumulate() {
    PodRequest r =
        PodRequest.of(
            pod("ns/p")
                .requests("cpu", "1", "memory", "1Gi")
                .initContainer(container("sidecar", "Always", "cpu", "500m", "memory", "100Mi"))
                .initContainer(container("init", null, "cpu", "2", "memory", "512Mi"))
                .build());
    // Regular 1 cpu + sidecar 0.5 = 1.5; the init container needs 2 + 0.5 running sidecar = 2.5.
    // Memory: 1Gi + 100Mi = 1124Mi against 512Mi + 100Mi = 612Mi.
    assertThat(r.milliCpu()).isEqualTo(2500);
    assertThat(r.memory()).isEqualTo(1124 * MI);
    assertThat(r.nonZeroMilliCpu()).isEqualTo(2500);
    assertThat(r.nonZeroMemory()).isEqualTo(1124 * MI);
  }

  @Test
  void of_initContainerWithoutRequests_countsWithDefaultsInTheNonZeroMax() {
    PodRequest r =
        PodRequest.of(pod("ns/p").requests("cpu", "50m", "memory", "10Mi").initRequests().build());
    assertThat(r.milliCpu()).isEqualTo(50);
    assertThat(r.nonZeroMilliCpu()).isEqualTo(100);
    assertThat(r.nonZeroMemory()).isEqualTo(200 * MI);
  }

  @Test
  void of_overheadAndGpu_areAdded() {
    PodRequest r =
        PodRequest.of(
            pod("ns/p")
                .requests("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "2")
                .overhead("cpu", "250m", "memory", "64Mi")
                .build());
    assertThat(r).isEqualTo(new PodRequest(1250, 1088 * MI, 2, 1250, 1088 * MI));
  }

  @Test
  void of_fractionalValues_roundUpLikeKubernetes() {
    PodRequest r = PodRequest.of(pod("ns/p").requests("cpu", "0.0001", "memory", "0.5").build());
    assertThat(r.milliCpu()).isEqualTo(1);
    assertThat(r.memory()).isEqualTo(1);
  }

  @Test
  void equalRequestsAreOneLocalityKey_andEachFigureSeparatesThem() {
    PodRequest r = new PodRequest(1000, 2, 3, 1000, 2);
    assertThat(new PodRequest(1000, 2, 3, 1000, 2)).isEqualTo(r).hasSameHashCodeAs(r);
    assertThat(
            List.of(
                new PodRequest(999, 2, 3, 1000, 2),
                new PodRequest(1000, 3, 3, 1000, 2),
                new PodRequest(1000, 2, 4, 1000, 2),
                new PodRequest(1000, 2, 3, 1001, 2),
                new PodRequest(1000, 2, 3, 1000, 3)))
        .allSatisfy(other -> assertThat(other).isNotEqualTo(r));
  }
}
