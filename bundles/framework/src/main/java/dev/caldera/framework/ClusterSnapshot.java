package dev.caldera.framework;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import java.time.Instant;
import java.util.List;

/**
 * What a cluster source hands to one session: every object the scheduler reads, in a fixed order
 * (nodes in the order they were first seen).
 *
 * @param pods every pod of this scheduler, and every pod of any scheduler bound to a node
 * @param now the clock the session sees
 */
public record ClusterSnapshot(
    List<Node> nodes,
    List<Pod> pods,
    List<PodGroup> podGroups,
    List<Queue> queues,
    ClusterInfo info,
    Instant now) {
  public ClusterSnapshot {
    nodes = List.copyOf(nodes);
    pods = List.copyOf(pods);
    podGroups = List.copyOf(podGroups);
    queues = List.copyOf(queues);
    info = info == null ? new ClusterInfo(null, null, null, null, null) : info;
    now = now == null ? Instant.now() : now;
  }
}
