package dev.caldera.framework.internal.session;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Each pod of a new snapshot is found among the previous one's exactly when it is the same object.
 */
class PodAlignmentTest {

  private static List<Pod> pods(int n) {
    return new ArrayList<>(IntStream.range(0, n).mapToObj(i -> pod("ns/p-" + i).build()).toList());
  }

  private static int[] positions(List<Pod> previous, List<Pod> now) {
    PodAlignment a = new PodAlignment(previous.toArray(new Pod[0]));
    return now.stream().mapToInt(a::find).toArray();
  }

  @Test
  void samePods_sameOrder_areFoundInPlace() {
    List<Pod> before = pods(5);
    assertThat(positions(before, before)).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void aPodChangedInPlace_isNotFound_andTheWalkGoesOn() {
    List<Pod> before = pods(5);
    List<Pod> now = new ArrayList<>(before);
    now.set(2, pod("ns/p-2").build());
    assertThat(positions(before, now)).containsExactly(0, 1, -1, 3, 4);
  }

  @Test
  void podsGone_andPodsAddedAtTheEnd() {
    List<Pod> before = pods(40);
    List<Pod> now = new ArrayList<>(before);
    now.subList(10, 13).clear();
    now.remove(0);
    now.add(pod("ns/new-1").build());
    now.add(pod("ns/new-2").build());
    int[] at = positions(before, now);
    assertThat(at[0]).isEqualTo(1);
    assertThat(at[9]).isEqualTo(13);
    assertThat(at[now.size() - 3]).isEqualTo(39);
    assertThat(at[now.size() - 2]).isEqualTo(-1);
    assertThat(at[now.size() - 1]).isEqualTo(-1);
  }

  @Test
  void manyGoneInARow_orAnotherOrder_isStillExact() {
    List<Pod> before = pods(100);
    List<Pod> now = new ArrayList<>(before.subList(50, 100));
    now.addAll(before.subList(0, 10));
    now.add(5, pod("ns/inserted").build());
    int[] at = positions(before, now);
    for (int i = 0; i < now.size(); i++) {
      assertThat(at[i]).as("pod %s", i).isEqualTo(before.indexOf(now.get(i)));
    }
  }

  @Test
  void anEqualCopy_isNotTheSamePod() {
    List<Pod> before = pods(3);
    List<Pod> now = pods(3);
    assertThat(now).isEqualTo(before);
    assertThat(positions(before, now)).containsExactly(-1, -1, -1);
  }
}
