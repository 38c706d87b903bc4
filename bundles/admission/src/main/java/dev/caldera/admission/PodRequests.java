package dev.caldera.admission;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pod's total request as Kubernetes computes it ({@code resourcehelper.PodRequests}), exactly and
 * per resource name: the containers and sidecar init containers run together, each other init
 * container runs alone after the sidecars started before it, the larger of the two counts, plus the
 * overhead. Unlike {@code Resource.requestOf(Pod)} of api-support (Volcano's scheduler-side {@code
 * GetPodResourceRequest}) it adds no {@code pods} and keeps exact quantities: it is what the pod
 * group controller writes into an implicit group's {@code minResources}.
 */
public final class PodRequests {

  private PodRequests() {}

  /**
   * The pod's request, resource name → quantity. Quantities are spelled as Kubernetes would print
   * them ({@code 1Gi} for memory and storage, {@code 1500m} for milli values).
   */
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
    try {
      if (whole && (name.equals("memory") || name.endsWith("storage"))) {
        return Quantity.ofBytes(amount.longValueExact());
      }
      if (milli.stripTrailingZeros().scale() <= 0) {
        return Quantity.ofMilli(milli.longValueExact());
      }
      return Quantity.parse(amount.toPlainString());
    } catch (ArithmeticException beyondLong) {
      // A live cluster may hold anything: keep the exact value, in plain spelling.
      return Quantity.parse(amount.stripTrailingZeros().toPlainString());
    }
  }
}
