package dev.caldera.plugins.usage;

import java.util.HashMap;
import java.util.Map;

/**
 * Volcano's {@code ShadowLoadCache}: the estimated cpu (milli) and memory (bytes) of tasks placed
 * on each node that the metrics cannot show yet, with a per-task snapshot so that a deallocation
 * subtracts exactly what its allocation added.
 */
final class ShadowLoad {

  /** One node's shadow totals (extended by the plugin's per-node state). */
  static class Node {
    double cpu;
    double memory;
  }

  private record Snapshot(Node node, double cpu, double memory) {}

  private final Map<String, Snapshot> snapshots = new HashMap<>();

  /** Adds a task's estimate to {@code node}, replacing the task's earlier estimate if any. */
  void add(String taskUid, Node node, double cpu, double memory) {
    Snapshot old = snapshots.get(taskUid);
    if (old != null) {
      subtract(old);
    }
    node.cpu += cpu;
    node.memory += memory;
    snapshots.put(taskUid, new Snapshot(node, cpu, memory));
  }

  /** Subtracts the task's recorded estimate; nothing if none was recorded. */
  void remove(String taskUid) {
    Snapshot s = snapshots.remove(taskUid);
    if (s != null) {
      subtract(s);
    }
  }

  private static void subtract(Snapshot s) {
    s.node.cpu = Math.max(0, s.node.cpu - s.cpu);
    s.node.memory = Math.max(0, s.node.memory - s.memory);
  }
}
