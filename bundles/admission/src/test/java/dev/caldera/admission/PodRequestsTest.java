package dev.caldera.admission;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import dev.caldera.testkit.Resources;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodRequestsTest {

  private static Container sidecar(String... requests) {
    return new Container("sidecar", "", Resources.list(requests), null, "Always");
  }

  @Test
  void of_sumsTheContainers_withoutAPodsEntry() {
    Pod p =
        pod("ns/p")
            .requests("cpu", "1", "memory", "512Mi")
            .container(new Container("second", "", Resources.list("cpu", "500m"), null, null))
            .build();
    assertThat(PodRequests.of(p))
        .containsOnly(
            Map.entry("cpu", Quantity.parse("1500m")),
            Map.entry("memory", Quantity.parse("512Mi")));
  }

  @Test
  void of_takesTheLargerOfContainersAndEachInitContainer_plusOverhead() {
    // max(1 + 0.5 sidecar, 3 init) + 0.1 overhead
    Pod p =
        pod("ns/p")
            .requests("cpu", "1")
            .initRequests("cpu", "3")
            .initContainer(sidecar("cpu", "500m"))
            .overhead("cpu", "100m")
            .build();
    assertThat(PodRequests.of(p)).containsExactly(Map.entry("cpu", Quantity.parse("3.1")));
  }

  @Test
  void of_anInitContainerRunsWithTheSidecarsStartedBeforeIt() {
    // sidecar 1 then init 2: the init runs next to the sidecar (3) > containers 0.5 + sidecar 1
    Pod p =
        pod("ns/p")
            .requests("cpu", "500m")
            .initContainer(sidecar("cpu", "1"))
            .initRequests("cpu", "2")
            .build();
    assertThat(PodRequests.of(p).get("cpu")).isEqualTo(Quantity.parse("3"));

    // init 2 then sidecar 1: the init ran alone (2) > containers 0.5 + sidecar 1
    Pod before =
        pod("ns/p")
            .requests("cpu", "500m")
            .initRequests("cpu", "2")
            .initContainer(sidecar("cpu", "1"))
            .build();
    assertThat(PodRequests.of(before).get("cpu")).isEqualTo(Quantity.parse("2"));
  }

  @Test
  void of_spellsQuantitiesAsKubernetesPrintsThem() {
    Pod p =
        pod("ns/p")
            .requests("cpu", "0.25", "memory", "1073741824", "ephemeral-storage", "2048Mi")
            .requests("example.com/gpu", "2", "example.com/tiny", "0.5m")
            .build();
    Map<String, Quantity> r = PodRequests.of(p);
    assertThat(r.get("cpu")).hasToString("250m");
    assertThat(r.get("memory")).hasToString("1Gi");
    assertThat(r.get("ephemeral-storage")).hasToString("2Gi");
    assertThat(r.get("example.com/gpu")).hasToString("2");
    assertThat(r.get("example.com/tiny")).isEqualTo(Quantity.parse("0.5m"));
  }

  @Test
  void of_keepsTheExactValueBeyondTheRangeOfALong() {
    Pod p = pod("ns/p").requests("memory", "20E", "example.com/huge", "1e19").build();
    Map<String, Quantity> r = PodRequests.of(p);
    assertThat(r.get("memory")).isEqualTo(Quantity.parse("20000000000000000000"));
    assertThat(r.get("example.com/huge")).isEqualTo(Quantity.parse("10000000000000000000"));
  }

  @Test
  void of_aPodWithoutRequests_isEmpty() {
    assertThat(PodRequests.of(pod("ns/p").build())).isEmpty();
  }
}
