package dev.caldera.dsl.internal.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StringTableTest {

  @Test
  void findsEveryKeyAndNothingElse() {
    StringTable table =
        new StringTable(new String[] {"ReplicaSet", "Deployment", "Job"}, new int[] {0, 0, 1});

    assertThat(table.get(new String("ReplicaSet"))).isZero();
    assertThat(table.get("Deployment")).isZero();
    assertThat(table.get(new String("Job"))).isEqualTo(1);
    assertThat(table.get("StatefulSet")).isEqualTo(-1);
    assertThat(table.get("")).isEqualTo(-1);
  }

  @Test
  void keysWithTheSameHashAreStillTold() {
    // "Aa" and "BB" share a hash code, so no table size separates them: lookups scan.
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    StringTable table = new StringTable(new String[] {"Aa", "BB", "C"}, new int[] {7, 8, 9});

    assertThat(table.get("Aa")).isEqualTo(7);
    assertThat(table.get("BB")).isEqualTo(8);
    assertThat(table.get("C")).isEqualTo(9);
    assertThat(table.get("AaBB")).isEqualTo(-1);
  }
}
