package dev.caldera.plugins.nodeorder;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import java.util.Map;

/**
 * What each node's pods summed to in the last session that counted them, kept for the next one: a
 * node whose {@link dev.caldera.api.info.NodeInfo#tasks()} is the very list the count read (a node
 * the session did not change, carried by the framework) sums to the same again, so the next session
 * takes the count instead of reading each of its pods. On 20,000 bound pods that read is most of
 * what a session spends in this plugin.
 *
 * <p>Thread-safe: a session reads the last published counts and publishes its own; what is
 * published is never changed (a session that changes a taken count changes its own copy).
 */
final class CountedNodes {

  /**
   * One node's count.
   *
   * @param tasks the list the count read; the count holds while a session's node gives this list
   * @param pods the counted pods by task UID, in the order they were counted
   * @param sums {@code nonZeroMilliCpu, nonZeroMemory, milliCpu, memory, gpu}
   */
  record Count(List<TaskInfo> tasks, Map<String, NodeState.Placed> pods, long[] sums) {}

  private volatile Map<String, Count> last = Map.of();

  /** The counts the last session published, by node name. */
  Map<String, Count> last() {
    return last;
  }

  /** Publishes a session's counts (the map and its counts are not changed afterwards). */
  void publish(Map<String, Count> counts) {
    last = counts;
  }
}
