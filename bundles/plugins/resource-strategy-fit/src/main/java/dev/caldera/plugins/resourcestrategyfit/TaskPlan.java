package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.Arrays;

/**
 * What scoring one task needs, worked out once per task rather than once per node: the request's
 * dimensions, the strategy of each (after the pod's annotation overrides) and whether it asks for a
 * proportional resource. Immutable, so node scoring threads may share it.
 */
final class TaskPlan {

  final TaskInfo task;

  /** {@code Resreq.ResourceNames()}: dimensions of at least ε, {@code pods} included. */
  final int[] requested;

  /** The scored dimensions (those with a strategy), their weights and whether MostAllocated. */
  final int[] scored;

  final int[] weights;
  final boolean[] mostAllocated;

  /** Whether the task requests any proportional resource (the predicate then passes). */
  final boolean requestsProportional;

  TaskPlan(TaskInfo task, ResourceStrategies global, ProportionalPolicy.Compiled proportional) {
    this.task = task;
    ResourceView request = task.resreq();
    this.requested = request.resourceIndices();
    ResourceStrategies strategies = PodOverrides.apply(global, task.pod().metadata().annotations());
    int n = 0;
    int[] scored = new int[requested.length];
    int[] weights = new int[requested.length];
    boolean[] most = new boolean[requested.length];
    for (int i : requested) {
      ResourceStrategy s = strategies.lookup(ResourceNames.nameOf(i));
      if (s == null) {
        continue;
      }
      scored[n] = i;
      weights[n] = s.weight();
      most[n] = s.type() == ScoringType.MOST_ALLOCATED;
      n++;
    }
    this.scored = Arrays.copyOf(scored, n);
    this.weights = Arrays.copyOf(weights, n);
    this.mostAllocated = Arrays.copyOf(most, n);
    this.requestsProportional = proportional != null && proportional.requestsAny(request);
  }
}
