package dev.caldera.api;

import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.BatchNodeOrderFn;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.JobEnqueuedFn;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.extension.JobPipelinedFn;
import dev.caldera.api.extension.JobReadyFn;
import dev.caldera.api.extension.JobStarvingFn;
import dev.caldera.api.extension.JobValidFn;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.extension.OverusedFn;
import dev.caldera.api.extension.PreBindFn;
import dev.caldera.api.extension.PrePredicateFn;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.PreemptableFn;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.QueueOrderFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.SimulateAddTaskFn;
import dev.caldera.api.extension.SimulateAllocatableFn;
import dev.caldera.api.extension.SimulatePredicateFn;
import dev.caldera.api.extension.SimulateRemoveTaskFn;
import dev.caldera.api.extension.TaskOrderFn;
import dev.caldera.api.extension.VictimQueueOrderFn;
import dev.caldera.api.extension.VictimTasksFn;
import java.util.List;

/**
 * A typed name for one session extension point. A plugin registers a function for a point with
 * {@link Extensions#add}; the framework combines the functions of all plugins per point as Volcano
 * does (see the framework's package documentation).
 *
 * @param <T> the function type
 */
public final class ExtensionPoint<T> {

  public static final ExtensionPoint<JobOrderFn> JOB_ORDER =
      new ExtensionPoint<>("jobOrder", JobOrderFn.class);
  public static final ExtensionPoint<QueueOrderFn> QUEUE_ORDER =
      new ExtensionPoint<>("queueOrder", QueueOrderFn.class);
  public static final ExtensionPoint<TaskOrderFn> TASK_ORDER =
      new ExtensionPoint<>("taskOrder", TaskOrderFn.class);
  public static final ExtensionPoint<VictimQueueOrderFn> VICTIM_QUEUE_ORDER =
      new ExtensionPoint<>("victimQueueOrder", VictimQueueOrderFn.class);
  public static final ExtensionPoint<PredicateFn> PREDICATE =
      new ExtensionPoint<>("predicate", PredicateFn.class);
  public static final ExtensionPoint<PrePredicateFn> PRE_PREDICATE =
      new ExtensionPoint<>("prePredicate", PrePredicateFn.class);
  public static final ExtensionPoint<NodeOrderFn> NODE_ORDER =
      new ExtensionPoint<>("nodeOrder", NodeOrderFn.class);
  public static final ExtensionPoint<BatchNodeOrderFn> BATCH_NODE_ORDER =
      new ExtensionPoint<>("batchNodeOrder", BatchNodeOrderFn.class);
  public static final ExtensionPoint<PreemptableFn> PREEMPTABLE =
      new ExtensionPoint<>("preemptable", PreemptableFn.class);
  public static final ExtensionPoint<ReclaimableFn> RECLAIMABLE =
      new ExtensionPoint<>("reclaimable", ReclaimableFn.class);
  public static final ExtensionPoint<PreemptiveFn> PREEMPTIVE =
      new ExtensionPoint<>("preemptive", PreemptiveFn.class);
  public static final ExtensionPoint<OverusedFn> OVERUSED =
      new ExtensionPoint<>("overused", OverusedFn.class);
  public static final ExtensionPoint<AllocatableFn> ALLOCATABLE =
      new ExtensionPoint<>("allocatable", AllocatableFn.class);
  public static final ExtensionPoint<JobEnqueueableFn> JOB_ENQUEUEABLE =
      new ExtensionPoint<>("jobEnqueueable", JobEnqueueableFn.class);
  public static final ExtensionPoint<JobEnqueuedFn> JOB_ENQUEUED =
      new ExtensionPoint<>("jobEnqueued", JobEnqueuedFn.class);
  public static final ExtensionPoint<JobReadyFn> JOB_READY =
      new ExtensionPoint<>("jobReady", JobReadyFn.class);
  public static final ExtensionPoint<JobPipelinedFn> JOB_PIPELINED =
      new ExtensionPoint<>("jobPipelined", JobPipelinedFn.class);
  public static final ExtensionPoint<JobValidFn> JOB_VALID =
      new ExtensionPoint<>("jobValid", JobValidFn.class);
  public static final ExtensionPoint<JobStarvingFn> JOB_STARVING =
      new ExtensionPoint<>("jobStarving", JobStarvingFn.class);
  public static final ExtensionPoint<VictimTasksFn> VICTIM_TASKS =
      new ExtensionPoint<>("victimTasks", VictimTasksFn.class);
  public static final ExtensionPoint<SimulateAllocatableFn> SIMULATE_ALLOCATABLE =
      new ExtensionPoint<>("simulateAllocatable", SimulateAllocatableFn.class);
  public static final ExtensionPoint<SimulatePredicateFn> SIMULATE_PREDICATE =
      new ExtensionPoint<>("simulatePredicate", SimulatePredicateFn.class);
  public static final ExtensionPoint<SimulateAddTaskFn> SIMULATE_ADD_TASK =
      new ExtensionPoint<>("simulateAddTask", SimulateAddTaskFn.class);
  public static final ExtensionPoint<SimulateRemoveTaskFn> SIMULATE_REMOVE_TASK =
      new ExtensionPoint<>("simulateRemoveTask", SimulateRemoveTaskFn.class);
  public static final ExtensionPoint<EventHandler> EVENT_HANDLER =
      new ExtensionPoint<>("eventHandler", EventHandler.class);
  public static final ExtensionPoint<PreBindFn> PRE_BIND =
      new ExtensionPoint<>("preBind", PreBindFn.class);

  /** Every extension point, in a fixed order. */
  public static final List<ExtensionPoint<?>> ALL =
      List.of(
          JOB_ORDER,
          QUEUE_ORDER,
          TASK_ORDER,
          VICTIM_QUEUE_ORDER,
          PREDICATE,
          PRE_PREDICATE,
          NODE_ORDER,
          BATCH_NODE_ORDER,
          PREEMPTABLE,
          RECLAIMABLE,
          PREEMPTIVE,
          OVERUSED,
          ALLOCATABLE,
          JOB_ENQUEUEABLE,
          JOB_ENQUEUED,
          JOB_READY,
          JOB_PIPELINED,
          JOB_VALID,
          JOB_STARVING,
          VICTIM_TASKS,
          SIMULATE_ALLOCATABLE,
          SIMULATE_PREDICATE,
          SIMULATE_ADD_TASK,
          SIMULATE_REMOVE_TASK,
          EVENT_HANDLER,
          PRE_BIND);

  private final String name;
  private final Class<T> type;

  private ExtensionPoint(String name, Class<T> type) {
    this.name = name;
    this.type = type;
  }

  /** The point's name, e.g. {@code jobOrder}. */
  public String name() {
    return name;
  }

  /** The function type. */
  public Class<T> type() {
    return type;
  }

  @Override
  public String toString() {
    return name;
  }
}
