package dev.caldera.sim.internal;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pod's total request as Kubernetes computes it ({@code resourcehelper.PodRequests}): the
 * containers and sidecar init containers run together, each other init container runs alone after
 * the sidecars started before it, the larger of the two counts, plus the overhead.
 */
public final class PodRequests {

  private PodRequests() {}

  /** The pod's request, resource name → quantity, in first-seen order. */
  public static Map<String, Quantity> of(Pod pod) {
    Map<String, BigDecimal> reqs = new LinkedHashMap<>();
    for (Container c : pod.containers()) {
      add(reqs, c.requests());
    }
    Map<String, BigDecimal> sidecars = new LinkedHashMap<>();
    Map<String, BigDecimal> initMax = new LinkedHashMap<>();
    for (Container c : pod.initContainers()) {
      Map<String, BigDecimal> running;
      if ("Always".equals(c.restartPolicy())) {
        add(reqs, c.requests());
        add(sidecars, c.requests());
        running = sidecars;
      } else {
        running = new LinkedHashMap<>(sidecars);
        add(running, c.requests());
      }
      running.forEach((k, v) -> initMax.merge(k, v, BigDecimal::max));
    }
    initMax.forEach((k, v) -> reqs.merge(k, v, BigDecimal::max));
    add(reqs, pod.overhead());
    Map<String, Quantity> out = new LinkedHashMap<>();
    reqs.forEach((k, v) -> out.put(k, quantity(k, v)));
    return out;
  }

  private static void add(Map<String, BigDecimal> into, Map<String, Quantity> q) {
    q.forEach((k, v) -> into.merge(k, v.amount(), BigDecimal::add));
  }

  private static Quantity quantity(String name, BigDecimal amount) {
    BigDecimal milli = amount.movePointRight(3);
    boolean whole = amount.stripTrailingZeros().scale() <= 0;
    if (whole && (name.equals("memory") || name.endsWith("storage"))) {
      return Quantity.ofBytes(amount.longValueExact());
    }
    if (milli.stripTrailingZeros().scale() <= 0) {
      return Quantity.ofMilli(milli.longValueExact());
    }
    return Quantity.parse(amount.toPlainString());
  }
}
