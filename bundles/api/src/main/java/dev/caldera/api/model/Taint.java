package dev.caldera.api.model;

/** A node taint; effect is NoSchedule, PreferNoSchedule or NoExecute. */
public record Taint(String key, String value, String effect) {
  public Taint {
    value = value == null ? "" : value;
  }
}
