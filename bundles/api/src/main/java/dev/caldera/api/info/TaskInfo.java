package dev.caldera.api.info;

import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.resource.ResourceView;
import java.time.Instant;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A read-only view of one task (pod) in a session. Its status and node change as the session
 * allocates, pipelines and evicts; the resources it returns are read-only views.
 */
@ProviderType
public interface TaskInfo {

  /** The pod UID. */
  String uid();

  /** The pod name. */
  String name();

  /** The pod namespace. */
  String namespace();

  /** {@code namespace/name}. */
  default String key() {
    return namespace() + "/" + name();
  }

  /** {@code namespace/podgroup}, or empty for a pod outside any job. */
  String jobId();

  /** The pod as read from the cluster. */
  Pod pod();

  /**
   * The pod's placement terms (node selection, pod affinity, topology spread), parsed once: the
   * framework parses them on first use and keeps them for the session, so the predicates and the
   * scores read one copy. Implementations parse with the api-support bundle's {@code
   * PodPlacements.of}.
   */
  PodPlacement placement();

  /** The current status. */
  TaskStatus status();

  /** The node the task is placed, allocated or pipelined on; empty if none. */
  String nodeName();

  /** The request ({@code Resreq}); includes {@code pods: 1}. */
  ResourceView resreq();

  /** The request used for fitting ({@code InitResreq}). */
  ResourceView initResreq();

  /** {@code spec.priority}, 1 when unset, overridden by {@code volcano.sh/task-priority}. */
  int priority();

  /** {@code volcano.sh/preemptable} (annotation, then label); default true. */
  boolean preemptable();

  /** Whether the task requests nothing but a pod slot. */
  boolean bestEffort();

  /** {@code volcano.sh/task-spec} (annotation, then label), or empty. */
  String taskRole();

  /** Whether the pod has scheduling gates other than Volcano's queue-allocation gate. */
  boolean schedulingGated();

  /** The pod's creation time. */
  Instant creationTimestamp();

  /** Whether this task was pipelined after evictions made room for it. */
  boolean evictionOccurred();
}
