package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkloadTest {

  @Test
  void gangs_nameTheirGroupAndPods_andFindThemAgain() {
    Workload w = new Workload(10, 3);

    assertThat(w.pods()).isEqualTo(30);
    assertThat(w.groupName(2)).isEqualTo("gang-2");
    assertThat(w.podName(0)).isEqualTo("gang-0-0");
    assertThat(w.podName(29)).isEqualTo("gang-2-9");
    assertThat(w.unitOf(29)).isEqualTo(2);
    for (int i = 0; i < w.pods(); i++) {
      assertThat(w.indexOf(w.podName(i))).isEqualTo(i);
    }
  }

  @Test
  void plainPods_areTheirOwnUnits() {
    Workload w = new Workload(0, 5);

    assertThat(w.gangs()).isFalse();
    assertThat(w.pods()).isEqualTo(5);
    assertThat(w.unitSize()).isEqualTo(1);
    assertThat(w.podName(4)).isEqualTo("pod-4");
    assertThat(w.indexOf("pod-4")).isEqualTo(4);
  }

  @Test
  void indexOf_aNameNotOfTheWorkload_isMinusOne() {
    Workload gangs = new Workload(10, 3);
    Workload plain = new Workload(0, 5);

    assertThat(gangs.indexOf("gang-3-0")).as("no such gang").isEqualTo(-1);
    assertThat(gangs.indexOf("gang-0-10")).as("no such member").isEqualTo(-1);
    assertThat(gangs.indexOf("gang-01-1")).isEqualTo(-1);
    assertThat(gangs.indexOf("pod-1")).isEqualTo(-1);
    assertThat(gangs.indexOf("gang-x-1")).isEqualTo(-1);
    assertThat(plain.indexOf("pod-5")).isEqualTo(-1);
    assertThat(plain.indexOf("gang-0-0")).isEqualTo(-1);
    assertThat(plain.indexOf("pod-")).isEqualTo(-1);
  }

  @Test
  void ofAbout_makesWholeGangs_atLeastOne() {
    assertThat(Workload.ofAbout(6_000, 10)).isEqualTo(new Workload(10, 600));
    assertThat(Workload.ofAbout(104, 10)).isEqualTo(new Workload(10, 10));
    assertThat(Workload.ofAbout(3, 10)).isEqualTo(new Workload(10, 1));
    assertThat(Workload.ofAbout(7, 0)).isEqualTo(new Workload(0, 7));
  }
}
