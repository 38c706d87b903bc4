package dev.caldera.plugins.predicates;

import dev.caldera.api.extension.CycleState;
import dev.caldera.api.info.TaskInfo;

/**
 * What the pre-predicate stores in a task's cycle state for the predicate and the simulations.
 * {@code affinity} and {@code spread} are null when their filter is skipped for this pod.
 */
final class TaskState implements CycleState.Data {

  /** The cycle state key. */
  static final String KEY = "predicates";

  final TaskInfo task;
  final TaskFacts facts;
  final InterPodAffinityState affinity;
  final SpreadState spread;

  TaskState(TaskInfo task, TaskFacts facts, InterPodAffinityState affinity, SpreadState spread) {
    this.task = task;
    this.facts = facts;
    this.affinity = affinity;
    this.spread = spread;
  }

  /** A copy whose inter-pod affinity counts a simulation may change. */
  @Override
  public TaskState copy() {
    return new TaskState(task, facts, affinity == null ? null : affinity.copy(), spread);
  }
}
