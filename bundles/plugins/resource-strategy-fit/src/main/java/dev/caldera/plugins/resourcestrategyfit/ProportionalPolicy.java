package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code proportional} sub-policy: a node keeps, for every idle unit of a listed scarce
 * resource, a share of cpu and memory, so that tasks without that resource cannot take the cpu and
 * memory its users will need.
 *
 * <p>Units follow Volcano: a scalar's idle amount is in milli-units and cpu in milli-cores, so the
 * {@code <res>.cpu} rate is cores per device; memory is reserved as {@code idle · rate · 10^6}
 * bytes, so the {@code <res>.memory} rate is 10^9 bytes (about a GB) per device.
 *
 * @param resources the listed resources in {@code proportional.resources} order, with their rates
 *     ({@code proportional.resourceProportion["<res>.cpu"]} and {@code ["<res>.memory"]}, default
 *     1; a negative rate becomes 1)
 */
record ProportionalPolicy(List<Rate> resources) {

  /** One scarce resource and the cpu and memory reserved per unit of it. */
  record Rate(String name, double cpu, double memory) {}

  private static final Set<String> KEYS = Set.of("enable", "resources", "resourceProportion");

  ProportionalPolicy {
    resources = List.copyOf(resources);
  }

  /**
   * Reads the {@code proportional} argument.
   *
   * @return null when absent or not enabled (the predicate is then not registered)
   */
  static ProportionalPolicy parse(String plugin, String key, Object value) {
    NestedArguments map = NestedArguments.of(plugin, key, value);
    if (map == null) {
      return null;
    }
    map.refuseUnknownKeys(KEYS);
    boolean enable = map.getBoolean("enable", false);
    String list = map.getString("resources", "");
    NestedArguments proportion = map.getMap("resourceProportion");
    Map<String, Double> rates = new LinkedHashMap<>();
    if (proportion != null) {
      for (Map.Entry<String, Object> e : proportion.values().entrySet()) {
        rates.put(
            e.getKey(),
            NestedArguments.toDouble(plugin, proportion.pathOf(e.getKey()), e.getValue(), 1.0));
      }
    }
    Map<String, Rate> resources = new LinkedHashMap<>();
    for (String raw : list.split(",", -1)) {
      String name = raw.trim();
      if (name.isEmpty()) {
        continue;
      }
      double cpu = rates.getOrDefault(name + ".cpu", 1.0);
      double memory = rates.getOrDefault(name + ".memory", 1.0);
      resources.put(name, new Rate(name, cpu < 0 ? 1.0 : cpu, memory < 0 ? 1.0 : memory));
    }
    return enable ? new ProportionalPolicy(new ArrayList<>(resources.values())) : null;
  }

  /** The compiled form used by the predicate. */
  Compiled compile() {
    int n = resources.size();
    int[] indices = new int[n];
    double[] cpu = new double[n];
    double[] memory = new double[n];
    String[] reasons = new String[n];
    for (int k = 0; k < n; k++) {
      Rate r = resources.get(k);
      indices[k] = ResourceNames.indexOf(r.name());
      cpu[k] = r.cpu();
      memory[k] = r.memory();
      reasons[k] = "proportional of resource " + r.name() + " check failed";
    }
    return new Compiled(indices, cpu, memory, reasons);
  }

  /** The policy with resource indices resolved and failure reasons prepared. */
  static final class Compiled {
    private final int[] indices;
    private final double[] cpu;
    private final double[] memory;
    private final String[] reasons;

    Compiled(int[] indices, double[] cpu, double[] memory, String[] reasons) {
      this.indices = indices;
      this.cpu = cpu;
      this.memory = memory;
      this.reasons = reasons;
    }

    /** Whether the request asks for any of the listed resources (more than 0). */
    boolean requestsAny(ResourceView request) {
      for (int i : indices) {
        if (isScalar(i) && request.has(i) && request.get(i) > 0) {
          return true;
        }
      }
      return false;
    }

    /**
     * {@code checkNodeResourceIsProportional}: passes when the task requests a listed resource;
     * otherwise, for each listed resource present in the node's idle, fails (unresolvable) if the
     * cpu or memory left after the task would drop below what that resource's idle units reserve.
     */
    Status check(boolean requestsAny, ResourceView request, NodeInfo node) {
      if (requestsAny) {
        return Status.OK;
      }
      ResourceView idle = node.idle();
      for (int k = 0; k < indices.length; k++) {
        int i = indices[k];
        if (!isScalar(i) || !idle.has(i)) {
          continue;
        }
        double value = idle.get(i);
        double cpuReserved = value * cpu[k];
        double memoryReserved = value * memory[k] * 1000 * 1000;
        if (idle.milliCpu() - request.milliCpu() < cpuReserved
            || idle.memory() - request.memory() < memoryReserved) {
          return Status.unresolvable(reasons[k]);
        }
      }
      return Status.OK;
    }

    // Volcano looks the resources up among the scalars only; cpu and memory are never there.
    private static boolean isScalar(int index) {
      return index >= 2;
    }
  }
}
