package dev.caldera.plugins.capacitycard;

import static dev.caldera.testkit.NodeBuilder.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.plugins.capacitycard.CardDiscovery.Card;
import dev.caldera.plugins.capacitycard.CardDiscovery.NodeCards;
import dev.caldera.testkit.NodeBuilder;
import org.junit.jupiter.api.Test;

class CardDiscoveryTest {

  private static NodeBuilder nvidia(String product, String count, String memoryMiB) {
    return node("n1")
        .label("nvidia.com/gpu.product", product)
        .label("nvidia.com/gpu.count", count)
        .label("nvidia.com/gpu.memory", memoryMiB)
        .allocatable("cpu", "64", "memory", "512Gi", "pods", "110");
  }

  @Test
  void wholeCards_areNamedAfterTheProductAndCountedInTheVendorResource() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-H200", "8", "143771").allocatable("nvidia.com/gpu", "8").build());

    assertThat(cards.model()).isEqualTo("NVIDIA-H200");
    assertThat(cards.memoryMiB()).isEqualTo(143771);
    assertThat(cards.cards()).containsExactly(new Card("NVIDIA-H200", "nvidia.com/gpu", 8));
  }

  @Test
  void mpsSlices_areNamedWithMemoryInGiBRoundedToNearestAndReplicas() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-GeForce-RTX-4090", "1", "24564")
                .label("nvidia.com/gpu.replicas", "4")
                .allocatable("nvidia.com/gpu.shared", "4")
                .build());

    // 24564 MiB is 23.99 GiB: to the nearest GiB, as the design and Volcano name it.
    assertThat(cards.cards())
        .containsExactly(
            new Card("NVIDIA-GeForce-RTX-4090/mps-24g*1/4", "nvidia.com/gpu.shared", 4));
  }

  @Test
  void mpsSlices_anH800ReportingBelow80GiB_isMps80g() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-H800", "8", "81559")
                .label("nvidia.com/gpu.replicas", "2")
                .allocatable("nvidia.com/gpu.shared", "16")
                .build());

    assertThat(cards.cards())
        .extracting(Card::name)
        .contains("NVIDIA-H800/mps-80g*1/2")
        .doesNotContain("NVIDIA-H800/mps-79g*1/2");
  }

  @Test
  void mpsSlices_halfAGiBRoundsUp_justBelowRoundsDown() {
    assertThat(mpsName(40 * 1024 + 511)).isEqualTo("NVIDIA-A100/mps-40g*1/2");
    assertThat(mpsName(40 * 1024 + 512)).isEqualTo("NVIDIA-A100/mps-41g*1/2");
  }

  private String mpsName(long memoryMiB) {
    return CardDiscovery.discover(
            nvidia("NVIDIA-A100", "1", Long.toString(memoryMiB))
                .label("nvidia.com/gpu.replicas", "2")
                .allocatable("nvidia.com/gpu.shared", "2")
                .build())
        .cards()
        .stream()
        .filter(c -> c.name().contains("/mps-"))
        .findFirst()
        .orElseThrow()
        .name();
  }

  @Test
  void mpsWithoutReplicasLabel_isNotACard() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-A10", "1", "24576").allocatable("nvidia.com/gpu.shared", "4").build());

    assertThat(cards.cards()).isEmpty();
  }

  @Test
  void migSlices_mixedStrategy_coexistWithWholeCards() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-H200", "8", "143771")
                .label("nvidia.com/mig-1g.18gb.product", "NVIDIA-H200-MIG-1g.18gb")
                .label("nvidia.com/mig-1g.18gb.count", "3")
                .label("nvidia.com/mig-1g.18gb.memory", "16384")
                .allocatable(
                    "nvidia.com/gpu",
                    "7",
                    "nvidia.com/mig-1g.18gb",
                    "3",
                    "nvidia.com/mig-3g.71gb",
                    "1")
                .build());

    assertThat(cards.model()).isEqualTo("NVIDIA-H200");
    assertThat(cards.cards())
        .containsExactly(
            new Card("NVIDIA-H200", "nvidia.com/gpu", 7),
            new Card("NVIDIA-H200/mig-1g.18gb-mixed", "nvidia.com/mig-1g.18gb", 3),
            new Card("NVIDIA-H200/mig-3g.71gb-mixed", "nvidia.com/mig-3g.71gb", 1));
  }

  @Test
  void otherVendors_areFoundByPatternNotByList() {
    NodeCards amd =
        CardDiscovery.discover(
            node("a1")
                .label("amd.com/gpu.product", "AMD-Instinct-MI300X")
                .label("amd.com/gpu.count", "8")
                .label("amd.com/gpu.memory", "196608")
                .allocatable("cpu", "96", "amd.com/gpu", "8")
                .build());
    NodeCards ascend =
        CardDiscovery.discover(
            node("h1")
                .label("huawei.com/npu.product", "Ascend910B")
                .label("huawei.com/npu.count", "8")
                .label("huawei.com/npu.memory", "65536")
                .allocatable("cpu", "192", "huawei.com/Ascend910", "8")
                .build());
    NodeCards cambricon =
        CardDiscovery.discover(
            node("c1")
                .label("cambricon.com/mlu.product", "MLU370-X8")
                .allocatable("cambricon.com/mlu", "4")
                .build());

    assertThat(amd.cards()).containsExactly(new Card("AMD-Instinct-MI300X", "amd.com/gpu", 8));
    assertThat(ascend.cards()).containsExactly(new Card("Ascend910B", "huawei.com/Ascend910", 8));
    assertThat(cambricon.cards()).containsExactly(new Card("MLU370-X8", "cambricon.com/mlu", 4));
  }

  @Test
  void otherExtendedResources_areNotCards() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-H100", "8", "81559")
                .allocatable(
                    "nvidia.com/gpu",
                    "8",
                    "rdma/hca_shared_devices_a",
                    "100",
                    "mellanox.com/ib",
                    "1")
                .build());

    assertThat(cards.cards()).containsExactly(new Card("NVIDIA-H100", "nvidia.com/gpu", 8));
  }

  @Test
  void zeroAllocatable_isNotACard() {
    NodeCards cards =
        CardDiscovery.discover(
            nvidia("NVIDIA-H100", "8", "81559").allocatable("nvidia.com/gpu", "0").build());

    assertThat(cards.cards()).isEmpty();
    assertThat(cards.model()).isEqualTo("NVIDIA-H100");
  }

  @Test
  void nodeWithoutProductLabel_hasNoCards() {
    NodeCards cards =
        CardDiscovery.discover(node("c1").allocatable("cpu", "32", "nvidia.com/gpu", "8").build());

    assertThat(cards).isEqualTo(NodeCards.NONE);
  }

  @Test
  void severalProductLabels_preferTheOneWithCountAndMemory() {
    NodeCards cards =
        CardDiscovery.discover(
            node("n1")
                .label("aaa.example/gfd.product", "stale")
                .label("nvidia.com/gpu.product", "NVIDIA-L40S")
                .label("nvidia.com/gpu.count", "4")
                .label("nvidia.com/gpu.memory", "46068")
                .allocatable("nvidia.com/gpu", "4")
                .build());

    assertThat(cards.model()).isEqualTo("NVIDIA-L40S");
    assertThat(cards.cards()).containsExactly(new Card("NVIDIA-L40S", "nvidia.com/gpu", 4));
  }
}
