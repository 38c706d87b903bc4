package dev.caldera.plugins.capacitycard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnitsTest {

  @Test
  void cards_areCounts() {
    assertThat(Units.cards(3)).isEqualTo("3");
    assertThat(Units.cards(0)).isEqualTo("0");
    assertThat(Units.cards(0.5)).isEqualTo("0.5");
  }

  @Test
  void cpu_inCoresOrMillicores() {
    assertThat(Units.cpu(2000)).isEqualTo("2");
    assertThat(Units.cpu(1500)).isEqualTo("1500m");
    assertThat(Units.cpu(0)).isEqualTo("0");
  }

  @Test
  void memory_inMiOrGi() {
    assertThat(Units.memory(4L << 30)).isEqualTo("4Gi");
    assertThat(Units.memory(100L << 20)).isEqualTo("100Mi");
    assertThat(Units.memory(1536L << 20)).isEqualTo("1536Mi");
    assertThat(Units.memory(0)).isEqualTo("0Mi");
    assertThat(Units.memory(1_000_000)).isEqualTo("0.95Mi");
  }
}
