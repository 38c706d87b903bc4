package dev.caldera.testkit;

import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import dev.caldera.support.resource.Resource;
import java.util.LinkedHashMap;
import java.util.Map;

/** Short ways to write resource lists and {@link Resource} values in tests. */
public final class Resources {

  private Resources() {}

  /**
   * A Kubernetes resource list from name/quantity pairs, e.g. {@code list("cpu", "2", "memory",
   * "4Gi")}, in the order given.
   */
  public static Map<String, Quantity> list(String... nameQuantityPairs) {
    if (nameQuantityPairs.length % 2 != 0) {
      throw new IllegalArgumentException("expected name/quantity pairs");
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (int i = 0; i < nameQuantityPairs.length; i += 2) {
      out.put(nameQuantityPairs[i], Quantity.parse(nameQuantityPairs[i + 1]));
    }
    return out;
  }

  /** A resource built as Volcano's {@code NewResource} would from the same list. */
  public static Resource resource(String... nameQuantityPairs) {
    return Resource.fromList(list(nameQuantityPairs));
  }

  /**
   * A pod's request as Volcano's {@code GetPodResourceRequest} computes it ({@link
   * Resource#requestOf(Pod)}).
   */
  public static Resource podRequest(Pod pod) {
    return Resource.requestOf(pod);
  }
}
