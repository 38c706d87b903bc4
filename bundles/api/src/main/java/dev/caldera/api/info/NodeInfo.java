package dev.caldera.api.info;

import dev.caldera.api.model.Node;
import dev.caldera.api.resource.ResourceView;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A read-only view of a node's accounting in a session ({@code api/node_info.go}). The resources
 * returned must not be modified.
 */
@ProviderType
public interface NodeInfo {

  /** The node name. */
  String name();

  /**
   * The node's position in {@code Session.nodes()}, stable for the session, so plugins can keep
   * per-node state in arrays; -1 when the view does not know it.
   */
  default int index() {
    return -1;
  }

  /** The node as read from the cluster. */
  Node node();

  /** Allocatable (with {@code maxTaskNum} from {@code pods}). */
  ResourceView allocatable();

  /** Capacity. */
  ResourceView capacity();

  /** Idle: allocatable less every occupying task. May be negative. */
  ResourceView idle();

  /** Used: Σ request of occupying tasks. */
  ResourceView used();

  /** Σ request of Releasing tasks. */
  ResourceView releasing();

  /** Σ request of Pipelined tasks. */
  ResourceView pipelined();

  /** {@code FutureIdle = Idle + Releasing − Pipelined}. */
  ResourceView futureIdle();

  /**
   * Whether {@code request} fits {@link #futureIdle()} (ε rule, absent scalars as 0), without
   * allocating.
   */
  default boolean fitsFutureIdle(ResourceView request) {
    return request.fitsWithin(idle(), releasing(), pipelined());
  }

  /** Whether {@code request} fits {@link #idle()} (ε rule, absent scalars as 0). */
  default boolean fitsIdle(ResourceView request) {
    return request.fits(idle());
  }

  /**
   * Tasks on this node (occupying, releasing or pipelined), in the order they were added. A
   * returned list never changes: a node whose tasks change returns a new list, and the framework
   * returns the same list for as long as they do not (also to the next session, for a node it did
   * not change), so a plugin may keep what it read of a list while it gets that list again.
   */
  List<TaskInfo> tasks();

  /** How many tasks are on this node. */
  int taskCount();

  /**
   * The tasks counted on this node for inter-pod affinity and topology spread (kube-scheduler's
   * {@code NodeInfo.Pods} as Volcano keeps it): {@link #tasks()} less the tasks evicted in this
   * session (a victim stops counting at once; undoing the eviction counts it again). Kept by the
   * framework on allocate, pipeline, evict and their undo.
   */
  default List<TaskInfo> pods() {
    return tasks();
  }

  /**
   * The {@link #pods()} with a pod affinity or anti-affinity term, required or preferred
   * (kube-scheduler's {@code NodeInfo.PodsWithAffinity}; {@link
   * dev.caldera.api.placement.PodPlacement#hasPodAffinityTerms}), so a plugin need not walk every
   * pod to find them. Kept by the framework with {@link #pods()}.
   */
  default List<TaskInfo> podsWithAffinity() {
    return pods().stream()
        .filter(t -> dev.caldera.api.placement.PodPlacement.hasPodAffinityTerms(t.pod()))
        .toList();
  }

  /**
   * The {@link #pods()} with a required pod anti-affinity term (kube-scheduler's {@code
   * NodeInfo.PodsWithRequiredAntiAffinity}; {@link
   * dev.caldera.api.placement.PodPlacement#hasRequiredAntiAffinity}). Kept by the framework with
   * {@link #pods()}.
   */
  default List<TaskInfo> podsWithRequiredAntiAffinity() {
    return pods().stream()
        .filter(t -> dev.caldera.api.placement.PodPlacement.hasRequiredAntiAffinity(t.pod()))
        .toList();
  }
}
