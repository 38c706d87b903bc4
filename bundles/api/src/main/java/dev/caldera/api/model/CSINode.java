package dev.caldera.api.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of a {@code storage.k8s.io/v1} CSINode that the attach limit reads.
 *
 * @param metadata named as the node it describes
 * @param attachLimits driver name → {@code allocatable.count}, for the drivers that give one
 */
public record CSINode(ObjectMeta metadata, Map<String, Integer> attachLimits) {
  public CSINode {
    attachLimits =
        attachLimits == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(attachLimits));
  }

  /** The node's name. */
  public String name() {
    return metadata.name();
  }
}
