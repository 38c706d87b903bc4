package dev.caldera.framework.internal.actions;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resource fits of a task on a node, computed without building {@code node.futureIdle()}: these run
 * task × node times. They equal Volcano's {@code req.LessEqual(node.FutureIdle() [+ extra], Zero)}:
 * per dimension of the request, {@code req ≤ idle + releasing − pipelined [+ extra]} with ε
 * tolerance, an absent scalar counting as 0.
 */
final class NodeFit {

  /** No dimension is short of the future idle (but some may be short of the idle). */
  static final int FITS = -1;

  /** No dimension is short of the idle, so none of the future idle either. */
  static final int FITS_IDLE = -2;

  private static final ConcurrentHashMap<String, Status> INSUFFICIENT = new ConcurrentHashMap<>();

  private NodeFit() {}

  /** {@code req.LessEqual(node.Idle, Zero)}. */
  static boolean fitsIdle(ResourceView req, NodeInfo node) {
    return req.fits(node.idle());
  }

  /** {@code req.LessEqual(node.FutureIdle(), Zero)}. */
  static boolean fitsFutureIdle(ResourceView req, NodeInfo node) {
    return firstShort(req, node, null) < 0;
  }

  /** {@code req.LessEqual(node.FutureIdle() + extra, Zero)}. */
  static boolean fitsFutureIdle(ResourceView req, NodeInfo node, ResourceView extra) {
    return firstShort(req, node, extra) < 0;
  }

  /**
   * The dimensions of {@code req} in the order "Insufficient" reports them ({@code
   * LessEqualWithResourcesName}): cpu, memory, then the present scalars by name.
   */
  static int[] reportOrder(ResourceView req) {
    int[] scalars = req.scalarIndices();
    Integer[] boxed = new Integer[scalars.length];
    for (int i = 0; i < scalars.length; i++) {
      boxed[i] = scalars[i];
    }
    Arrays.sort(boxed, Comparator.comparing(ResourceNames::nameOf));
    int[] order = new int[scalars.length + 2];
    order[0] = ResourceNames.CPU_INDEX;
    order[1] = ResourceNames.MEMORY_INDEX;
    for (int i = 0; i < boxed.length; i++) {
      order[i + 2] = boxed[i];
    }
    return order;
  }

  /**
   * Allocate's two resource questions in one pass: {@link #FITS_IDLE} when the idle holds {@code
   * req}, {@link #FITS} when only the future idle does, else the first dimension the future idle
   * cannot hold.
   *
   * @param reportOrder {@link #reportOrder} of {@code req}
   */
  static int classify(ResourceView req, int[] reportOrder, NodeInfo node) {
    ResourceView idle = node.idle();
    ResourceView releasing = node.releasing();
    ResourceView pipelined = node.pipelined();
    boolean idleFits = true;
    for (int i : reportOrder) {
      double wanted = req.get(i);
      double now = idle.get(i);
      if (!leq(wanted, now + releasing.get(i) - pipelined.get(i))) {
        return i;
      }
      idleFits = idleFits && leq(wanted, now);
    }
    return idleFits ? FITS_IDLE : FITS;
  }

  /**
   * The first dimension of {@code req} that {@code node.FutureIdle() + extra} cannot hold, in
   * {@code LessEqualWithResourcesName} order (cpu, memory, then scalars by name), or a negative
   * value when it fits.
   *
   * @param extra resources to add to the future idle, or null
   */
  static int firstShort(ResourceView req, NodeInfo node, ResourceView extra) {
    ResourceView idle = node.idle();
    ResourceView releasing = node.releasing();
    ResourceView pipelined = node.pipelined();
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
      ResourceView req,
      ResourceView idle,
      ResourceView releasing,
      ResourceView pipelined,
      ResourceView extra,
      int i) {
    double available = idle.get(i) + releasing.get(i) - pipelined.get(i);
    if (extra != null) {
      available += extra.get(i);
    }
    return leq(req.get(i), available);
  }

  private static boolean leq(double l, double r) {
    return l < r || Math.abs(l - r) < Resource.EPSILON;
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
