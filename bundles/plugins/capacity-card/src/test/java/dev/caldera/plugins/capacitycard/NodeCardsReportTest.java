package dev.caldera.plugins.capacitycard;

import static dev.caldera.plugins.capacitycard.Fixtures.gpuNode;
import static dev.caldera.plugins.capacitycard.Fixtures.plugin;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.CardUse;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordingExtensions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeCardsReportTest {

  private static final Map<String, Object> UNLIMITED = Map.of("cardUnlimitedCpuMemory", true);

  @Test
  void sessionClose_reportsEachNodesCards_capacityAllocatedAndTheQueuesHoldingThem() {
    FakeSession s = new FakeSession();
    var a1 = gpuNode(s, "a1", "A", 4);
    s.addNode("cpu-1").allocatable("cpu", "32", "memory", "64Gi");
    s.addNode("mig-1")
        .label("nvidia.com/gpu.product", "A100")
        .allocatable("cpu", "32", "memory", "64Gi", "nvidia.com/mig-1g.10gb", "7");
    s.addQueue("train").annotation("volcano.sh/card.quota", "{\"A\":4}");
    s.addQueue("serve").annotation("volcano.sh/card.quota", "{\"A\":2}");
    s.addJob("ml/t")
        .queue("train")
        .task("t-0")
        .annotation("volcano.sh/card.name", "A")
        .requests("cpu", "1", "nvidia.com/gpu", "2")
        .status(TaskStatus.RUNNING)
        .on(a1);
    s.addJob("ml/s")
        .queue("serve")
        .task("s-0")
        .annotation("volcano.sh/card.name", "A")
        .requests("cpu", "1", "nvidia.com/gpu", "1")
        .status(TaskStatus.RUNNING)
        .on(a1);
    CapacityCardPlugin p = plugin(UNLIMITED);
    RecordingExtensions.open(p, s);

    p.onSessionClose(s);

    assertThat(s.nodeCards()).containsOnlyKeys("a1", "mig-1");
    assertThat(s.nodeCards().get("a1"))
        .containsExactly(
            new CardUse("A", "nvidia.com/gpu", "whole", 4, 3, Map.of("train", 2.0, "serve", 1.0)));
    assertThat(s.nodeCards().get("a1").get(0).free()).isEqualTo(1);
    assertThat(s.nodeCards().get("mig-1"))
        .containsExactly(
            new CardUse("A100/mig-1g.10gb-mixed", "nvidia.com/mig-1g.10gb", "mig", 7, 0, Map.of()));
  }
}
