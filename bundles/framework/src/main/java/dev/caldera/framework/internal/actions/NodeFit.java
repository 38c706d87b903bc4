package dev.caldera.framework.internal.actions;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.resource.Resource;
import dev.caldera.api.resource.ResourceNames;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resource fits of a task on a node, computed without building {@code node.futureIdle()}: these run
 * task × node times. They equal Volcano's {@code req.LessEqual(node.FutureIdle() [+ extra], Zero)}:
 * per dimension of the request, {@code req ≤ idle + releasing − pipelined [+ extra]} with ε
 * tolerance, an absent scalar counting as 0.
 */
final class NodeFit {

  /** No dimension is short. */
  static final int FITS = -1;

  private static final ConcurrentHashMap<String, Status> INSUFFICIENT = new ConcurrentHashMap<>();

  private NodeFit() {}

  /** {@code req.LessEqual(node.Idle, Zero)}. */
  static boolean fitsIdle(Resource req, NodeInfo node) {
    return req.fits(node.idle());
  }

  /** {@code req.LessEqual(node.FutureIdle(), Zero)}. */
  static boolean fitsFutureIdle(Resource req, NodeInfo node) {
    return firstShort(req, node, null) == FITS;
  }

  /** {@code req.LessEqual(node.FutureIdle() + extra, Zero)}. */
  static boolean fitsFutureIdle(Resource req, NodeInfo node, Resource extra) {
    return firstShort(req, node, extra) == FITS;
  }

  /**
   * The first dimension of {@code req} that {@code node.FutureIdle() + extra} cannot hold, in
   * {@code LessEqualWithResourcesName} order (cpu, memory, then scalars by name), or {@link #FITS}.
   *
   * @param extra resources to add to the future idle, or null
   */
  static int firstShort(Resource req, NodeInfo node, Resource extra) {
    Resource idle = node.idle();
    Resource releasing = node.releasing();
    Resource pipelined = node.pipelined();
    if (!fits(req, idle, releasing, pipelined, extra, ResourceNames.CPU_INDEX)) {
      return ResourceNames.CPU_INDEX;
    }
    if (!fits(req, idle, releasing, pipelined, extra, ResourceNames.MEMORY_INDEX)) {
      return ResourceNames.MEMORY_INDEX;
    }
    int first = FITS;
    for (int i = 2; i < req.width(); i++) {
      if (req.has(i)
          && !fits(req, idle, releasing, pipelined, extra, i)
          && (first == FITS
              || ResourceNames.nameOf(i).compareTo(ResourceNames.nameOf(first)) < 0)) {
        first = i;
      }
    }
    return first;
  }

  private static boolean fits(
      Resource req, Resource idle, Resource releasing, Resource pipelined, Resource extra, int i) {
    double available = idle.get(i) + releasing.get(i) - pipelined.get(i);
    if (extra != null) {
      available += extra.get(i);
    }
    double wanted = req.get(i);
    return wanted < available || Math.abs(wanted - available) < Resource.EPSILON;
  }

  /** The allocate action's resource failure: {@code Unschedulable "Insufficient <name>"}. */
  static Status insufficient(int index) {
    String name = ResourceNames.nameOf(index);
    Status status = INSUFFICIENT.get(name);
    return status != null
        ? status
        : INSUFFICIENT.computeIfAbsent(name, n -> Status.unschedulable("Insufficient " + n));
  }
}
