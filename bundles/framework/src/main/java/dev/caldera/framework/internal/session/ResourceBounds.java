package dev.caldera.framework.internal.session;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The quantities a scheduler can compute with: every request, allocatable, capacity, minResources
 * and queue quantity must be at least zero and, in thousandths, fit a signed 64-bit integer (as
 * Kubernetes' {@code MilliValue}): at most {@link #MAX} units, which is about 8 PiB of memory or
 * 9.2 × 10<sup>15</sup> cores. An object with a quantity outside these bounds is refused whole (one
 * problem per object, the first field in a fixed order), so that it cannot stop the others from
 * being scheduled.
 */
final class ResourceBounds {

  /** The largest quantity accepted, in units: {@code Long.MAX_VALUE} thousandths. */
  public static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE).movePointLeft(3);

  private static final int INTEGER_DIGITS_OF_MAX = MAX.precision() - MAX.scale();

  private ResourceBounds() {}

  /**
   * Why {@code pod} is refused ({@code spec.containers[0].resources.requests.memory: ...}), or
   * null.
   */
  public static String problem(Pod pod) {
    if (within(pod.overhead()) && allWithin(pod.containers()) && allWithin(pod.initContainers())) {
      // Every pod of every session comes through here: the common answer costs no allocation.
      return null;
    }
    List<String> out = new ArrayList<>();
    List<Container> containers = pod.containers();
    for (int i = 0; i < containers.size(); i++) {
      check(out, "spec.containers[" + i + "].resources.requests", containers.get(i).requests());
    }
    List<Container> init = pod.initContainers();
    for (int i = 0; i < init.size(); i++) {
      check(out, "spec.initContainers[" + i + "].resources.requests", init.get(i).requests());
    }
    check(out, "spec.overhead", pod.overhead());
    return first(out);
  }

  /** Why {@code node} is refused, or null. */
  public static String problem(Node node) {
    if (within(node.allocatable()) && within(node.capacity())) {
      return null; // every node of every session: the common answer costs no allocation
    }
    List<String> out = new ArrayList<>();
    check(out, "status.allocatable", node.allocatable());
    check(out, "status.capacity", node.capacity());
    return first(out);
  }

  /** Why {@code group} is refused, or null. */
  public static String problem(PodGroup group) {
    if (within(group.minResources())) {
      return null;
    }
    List<String> out = new ArrayList<>();
    check(out, "spec.minResources", group.minResources());
    return first(out);
  }

  /** Why {@code queue} is refused, or null. */
  public static String problem(Queue queue) {
    if (within(queue.capability()) && within(queue.deserved()) && within(queue.guarantee())) {
      return null;
    }
    List<String> out = new ArrayList<>();
    check(out, "spec.capability", queue.capability());
    check(out, "spec.deserved", queue.deserved());
    check(out, "spec.guarantee.resource", queue.guarantee());
    return first(out);
  }

  /** Why one quantity is out of bounds, or null. */
  public static String problem(Quantity q) {
    BigDecimal amount = q.amount();
    // Fewer than 16 digits before the point is below MAX: every quantity of every session comes
    // here, and a BigDecimal keeps its precision once computed, where a comparison is computed
    // anew.
    if (amount.signum() >= 0 && amount.precision() - amount.scale() < INTEGER_DIGITS_OF_MAX) {
      return null;
    }
    if (amount.signum() < 0) {
      return Quantity.shown(q.toString()) + " is negative; expected a quantity of at least 0";
    }
    if (amount.compareTo(MAX) > 0) {
      return Quantity.shown(q.toString())
          + " is too large; expected at most "
          + MAX.toPlainString()
          + " (Kubernetes' largest milli-value)";
    }
    return null;
  }

  private static boolean allWithin(List<Container> containers) {
    for (Container c : containers) {
      if (!within(c.requests())) {
        return false;
      }
    }
    return true;
  }

  private static boolean within(Map<String, Quantity> quantities) {
    if (quantities == null) {
      return true;
    }
    for (Quantity q : quantities.values()) {
      if (q != null && problem(q) != null) {
        return false;
      }
    }
    return true;
  }

  private static void check(List<String> out, String field, Map<String, Quantity> quantities) {
    if (quantities == null) {
      return;
    }
    new TreeMap<>(quantities)
        .forEach(
            (name, q) -> {
              String p = q == null ? null : problem(q);
              if (p != null) {
                out.add(field + "." + name + ": " + p);
              }
            });
  }

  private static String first(List<String> problems) {
    return problems.isEmpty() ? null : problems.get(0);
  }
}
