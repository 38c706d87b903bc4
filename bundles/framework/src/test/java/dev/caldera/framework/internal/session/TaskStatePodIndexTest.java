package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class TaskStatePodIndexTest {

  /** The definition: the numeric last segment of {@code split("-")} when there are three. */
  private static int bySplit(String name) {
    String[] parts = name.split("-");
    if (parts.length < 3) {
      return -1;
    }
    try {
      return Integer.parseInt(parts[parts.length - 1]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Test
  void podIndex_isTheLastNumericSegmentOfThreeOrMore() {
    assertThat(TaskState.podIndex("job-1-worker-7")).isEqualTo(7);
    assertThat(TaskState.podIndex("job-7")).isEqualTo(-1);
    assertThat(TaskState.podIndex("job-a-x")).isEqualTo(-1);
    assertThat(TaskState.podIndex("job-a-3--")).isEqualTo(3);
  }

  @Test
  void podIndex_agreesWithSplittingOnDashes_forAnyName() {
    Random random = new Random(7);
    String alphabet = "-a1+9";
    for (int n = 0; n < 20_000; n++) {
      StringBuilder name = new StringBuilder();
      int length = random.nextInt(9);
      for (int i = 0; i < length; i++) {
        name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = name.toString();
      assertThat(TaskState.podIndex(s)).as("'%s'", s).isEqualTo(bySplit(s));
    }
  }
}
