package dev.caldera.dsl;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.support.resource.Resource;

/**
 * What a compiled policy reads besides the tasks and queues it is asked about: the objects a task
 * leads to and the queue figures. {@link SessionPolicyContext} answers from a scheduling session;
 * tests and {@code caldera policy test} may answer from fixtures. Returned resources are read,
 * never modified. Called on the evaluation path, so implementations should not allocate.
 */
public interface PolicyContext {

  /** The clock, in epoch milliseconds, for ages. */
  long nowMillis();

  /** The task's job (pod group), or null. */
  JobInfo job(TaskInfo task);

  /** A queue by name, or null. */
  QueueInfo queue(String name);

  /** A node by name, or null (also for the empty name). */
  NodeInfo node(String name);

  /** Σ request of the queue's allocated tasks, now. */
  Resource allocated(QueueInfo queue);

  /** {@code spec.deserved}; absent dimensions are 0. */
  Resource deserved(QueueInfo queue);

  /**
   * {@code spec.capability}; an absent dimension means no limit: cpu and memory are then {@code
   * +Infinity} and an absent scalar is read as unlimited by the policy.
   */
  Resource capability(QueueInfo queue);

  /** {@code spec.guarantee}; absent dimensions are 0. */
  Resource guarantee(QueueInfo queue);

  /**
   * max over the dimensions of deserved of allocated / deserved (a dimension deserved as 0 counts 1
   * when something is allocated in it); 1 for a queue without deserved, as capacity's flat mode.
   */
  double share(QueueInfo queue);
}
