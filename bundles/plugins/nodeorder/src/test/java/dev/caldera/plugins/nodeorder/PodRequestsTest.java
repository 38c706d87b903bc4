package dev.caldera.plugins.nodeorder;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Pod;
import org.junit.jupiter.api.Test;

/** A pod's request is read once while the pod is the same object, and only the last session's. */
class PodRequestsTest {

  private static Pod running(String key) {
    return pod(key).requests("cpu", "2", "memory", "1Gi").specNodeName("n1").build();
  }

  @Test
  void samePodObject_nextSession_reusesTheRequest() {
    PodRequests memo = new PodRequests();
    Pod p = running("ns/a");
    PodRequests.Generation first = memo.next();
    PodRequest read = first.of(p);
    first.publish();

    assertThat(memo.next().of(p)).isSameAs(read);
  }

  @Test
  void anEqualCopy_isReadAgain_withTheSameFigures() {
    PodRequests memo = new PodRequests();
    PodRequests.Generation first = memo.next();
    PodRequest read = first.of(running("ns/a"));
    first.publish();

    PodRequest again = memo.next().of(running("ns/a"));
    assertThat(again).isNotSameAs(read).isEqualTo(read);
  }

  @Test
  void aPodTheLastSessionDidNotHave_isForgotten() {
    PodRequests memo = new PodRequests();
    Pod p = running("ns/a");
    PodRequests.Generation first = memo.next();
    PodRequest read = first.of(p);
    first.publish();
    PodRequests.Generation second = memo.next();
    second.of(running("ns/b"));
    second.publish();

    assertThat(memo.next().of(p)).isNotSameAs(read);
  }

  @Test
  void afterPublishing_aGenerationIsOnlyRead() {
    PodRequests memo = new PodRequests();
    PodRequests.Generation first = memo.next();
    first.publish();
    Pod late = running("ns/late");
    PodRequest r = first.of(late);

    assertThat(memo.next().of(late)).isNotSameAs(r);
  }
}
