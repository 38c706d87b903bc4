package dev.caldera.plugins.capacity;

import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;

/** Prints internal resource values in Kubernetes units for events ("500m", "4Gi", "2"). */
final class Quantities {

  /** Values from here up are Volcano's "unlimited" (MaxFloat64 cpu/memory, MaxInt64 scalars). */
  private static final double UNLIMITED = 9.0e18;

  private Quantities() {}

  /** One dimension's value, e.g. cpu 1500 gives "1500m" and memory 2^30 gives "1Gi". */
  static String format(int index, double value) {
    if (value >= UNLIMITED) {
      return "unlimited";
    }
    long v = Math.round(value);
    return switch (index) {
      case ResourceNames.MEMORY_INDEX -> Quantity.ofBytes(v).toString();
      case ResourceNames.PODS_INDEX -> Quantity.of(v).toString();
      default -> Quantity.ofMilli(v).toString();
    };
  }

  /** Every present dimension as "name value", comma-separated; cpu and memory first. */
  static String format(ResourceView r) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < r.width(); i++) {
      if (!r.has(i)) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(ResourceNames.nameOf(i)).append(' ').append(format(i, r.get(i)));
    }
    return sb.toString();
  }
}
