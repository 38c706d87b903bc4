package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.testkit.NodeBuilder;
import dev.caldera.testkit.PodBuilder;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A pod on a known node names it with the node's own string, as a session reads every pod's. */
class ClusterCacheNodeNamesTest {

  private final ClusterCache cache = new ClusterCache(Set.of("volcano"));

  private static Pod boundTo(String key, String node) {
    // A string of its own, as each pod read from the API server has.
    return PodBuilder.pod(key).schedulerName("volcano").specNodeName(new String(node)).build();
  }

  private String nodeNameInSnapshot(String key) {
    return cache.snapshot(Set.of("volcano"), Instant.EPOCH).pods().stream()
        .filter(p -> p.key().equals(key))
        .findFirst()
        .orElseThrow()
        .nodeName();
  }

  @Test
  void aPodOnAKnownNode_namesItWithTheNodesString() {
    Node n1 = NodeBuilder.node("n1").allocatable("cpu", "4").build();
    cache.putNode(n1);
    Pod a = boundTo("ns/a", "n1");
    cache.putPod(a);
    cache.putPod(boundTo("ns/b", "n1"));

    assertThat(nodeNameInSnapshot("ns/a")).isSameAs(n1.name());
    assertThat(nodeNameInSnapshot("ns/b")).isSameAs(n1.name());
    assertThat(cache.pod("ns/a")).isEqualTo(a).isNotSameAs(a);
  }

  @Test
  void aPodOnANodeNotYetSeen_keepsItsOwnName() {
    Pod a = boundTo("ns/a", "n9");
    cache.putPod(a);

    assertThat(cache.pod("ns/a")).isSameAs(a);
  }

  @Test
  void aPendingPod_isKeptAsItCame() {
    cache.putNode(NodeBuilder.node("n1").allocatable("cpu", "4").build());
    Pod pending = PodBuilder.pod("ns/p").schedulerName("volcano").build();
    cache.putPod(pending);

    assertThat(cache.pod("ns/p")).isSameAs(pending);
  }
}
