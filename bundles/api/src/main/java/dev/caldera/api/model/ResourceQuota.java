package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.Map;

/** A ResourceQuota's status: {@code hard} and {@code used}, keyed exactly as written. */
public record ResourceQuota(
    ObjectMeta metadata, Map<String, Quantity> hard, Map<String, Quantity> used) {
  public ResourceQuota {
    hard = hard == null ? Map.of() : Map.copyOf(hard);
    used = used == null ? Map.of() : Map.copyOf(used);
  }
}
