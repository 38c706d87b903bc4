package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The test harness itself: the mock server answers a create that comes right after watches were
 * dropped. Before {@link FaultyDispatcher} took a closed watch off the server's list at once, the
 * server handed such a create to the closed watch's stopped sending thread, failed inside it and
 * never answered, and the client's request timed out: about one round in five here, and the rare
 * "request timed out" of {@code KubeClusterColdStartTest} and {@code
 * RealClusterFlowsOnMockServerTest} in full builds.
 */
class WatchDropRaceTest {

  private static final Watcher<Pod> IGNORE =
      new Watcher<>() {
        @Override
        public void eventReceived(Action action, Pod resource) {}

        @Override
        public void onClose(WatcherException cause) {}
      };

  @Test
  void createsRightAfterTheWatchesWereDropped_areAnswered() {
    List<String> unanswered = new ArrayList<>();
    try (MockApi api = new MockApi()) {
      for (int round = 0; round < 30; round++) {
        List<Watch> watches = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
          watches.add(api.kubectl.pods().inNamespace("ns1").watch(IGNORE));
        }
        // Pods the watches are sent, so that their sending threads have work queued.
        for (int i = 0; i < 5; i++) {
          api.pod("ns1", "seen-" + round + "-" + i).withoutBindingEmulation().create();
        }
        api.dispatcher.dropWatches();
        for (int i = 0; i < 5; i++) {
          String name = "after-" + round + "-" + i;
          try {
            api.pod("ns1", name).withoutBindingEmulation().create();
          } catch (RuntimeException e) {
            unanswered.add(name + ": " + e.getCause());
          }
        }
        watches.forEach(Watch::close);
      }
    }
    assertThat(unanswered).isEmpty();
  }
}
