package dev.caldera.plugins.tasktopology;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A group of a job's tasks that should land together: the pending ones still to place (in the order
 * they joined), and counts of the ones already placed per node.
 */
final class Bucket {

  private static final double MIB = 1024 * 1024;

  final int index;

  /** Pending tasks by UID, in the order they joined. */
  final Map<String, TaskInfo> tasks = new LinkedHashMap<>();

  /** Role → how many tasks of the role joined (placed or not). */
  final Map<String, Integer> roles = new HashMap<>();

  /** Σ request of the pending tasks; may drift below zero, as Volcano's. */
  final Resource request = Resource.empty();

  /** 1 milli-cpu, 1 MiB and one unit of any scalar weigh the same. */
  double reqScore;

  int boundTasks;

  /** Node → placed tasks of this bucket there. */
  final Map<String, Integer> nodes = new HashMap<>();

  Bucket(int index) {
    this.index = index;
  }

  /**
   * {@code Bucket.AddTask}: a placed task counts on its node, a pending one joins {@link #tasks}.
   */
  void add(String role, TaskInfo task) {
    roles.merge(role, 1, Integer::sum);
    if (!task.nodeName().isEmpty()) {
      nodes.merge(task.nodeName(), 1, Integer::sum);
      boundTasks++;
      return;
    }
    tasks.put(task.uid(), task);
    request.add(task.resreq());
    reqScore += score(task.resreq());
  }

  /**
   * {@code Bucket.TaskBound}: the task now counts on its node. Its request is subtracted even if it
   * was not pending here, as in Volcano.
   */
  void bound(TaskInfo task) {
    nodes.merge(task.nodeName(), 1, Integer::sum);
    boundTasks++;
    tasks.remove(task.uid());
    request.sub(task.resreq());
    reqScore -= score(task.resreq());
  }

  /** {@code CalcResReq}: cpu milli + memory MiB + every scalar ({@code pods} in units). */
  static double score(ResourceView r) {
    double score = r.milliCpu() + r.memory() / MIB;
    for (int i : r.scalarIndices()) {
      score += r.get(i);
    }
    return score;
  }
}
