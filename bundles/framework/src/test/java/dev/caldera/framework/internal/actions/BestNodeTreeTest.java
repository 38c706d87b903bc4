package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BestNodeTreeTest {

  /** The full scan's choice: the first maximum score among the idle nodes, else the others. */
  private static int fullScan(byte[] gradient, double[] score) {
    for (byte g = NodeAnswers.IDLE; g >= NodeAnswers.FUTURE_IDLE; g--) {
      int best = -1;
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < gradient.length; i++) {
        if (gradient[i] == g && score[i] > max) {
          max = score[i];
          best = i;
        }
      }
      if (best >= 0) {
        return best;
      }
    }
    return -1;
  }

  @Test
  void best_isTheFullScansChoice_afterEveryUpdate() {
    Random random = new Random(42);
    for (int n : new int[] {1, 2, 3, 7, 64, 100}) {
      byte[] gradient = new byte[n];
      double[] score = new double[n];
      for (int i = 0; i < n; i++) {
        gradient[i] = (byte) random.nextInt(3);
        score[i] = random.nextInt(5);
      }
      BestNodeTree tree = new BestNodeTree(gradient, score);
      for (int step = 0; step < 500; step++) {
        int expected = fullScan(gradient, score);
        int best = tree.best();
        int actual = gradient[best] == NodeAnswers.FAILED ? -1 : best;
        assertThat(actual).as("n=%d step=%d", n, step).isEqualTo(expected);
        int i = random.nextInt(n);
        gradient[i] = (byte) random.nextInt(3);
        // Few distinct scores, so that ties are common and the lower index must win them.
        score[i] = random.nextInt(5);
        tree.update(i);
      }
    }
  }

  @Test
  void best_ofEqualScores_isTheLowestIndex_andIdleBeatsAHigherScore() {
    byte[] gradient = {
      NodeAnswers.FUTURE_IDLE, NodeAnswers.IDLE, NodeAnswers.IDLE, NodeAnswers.IDLE
    };
    double[] score = {99, 1, 5, 5};
    BestNodeTree tree = new BestNodeTree(gradient, score);

    assertThat(tree.best()).isEqualTo(2);
  }
}
