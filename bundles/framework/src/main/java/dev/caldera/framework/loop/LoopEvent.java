package dev.caldera.framework.loop;

import java.time.Instant;
import java.util.Map;

/**
 * Something operators should know about, such as a plugin loaded or missing, a conf rejected, or a
 * bundle that could not be installed.
 *
 * @param type {@code Normal} or {@code Warning}, as Kubernetes events
 * @param reason a short CamelCase word, such as {@code SchedulingHeld}
 */
public record LoopEvent(
    Instant time, String type, String reason, String message, Map<String, String> fields) {

  /**
   * @param fields what the event is about, for log collectors ({@code object}, {@code namespace},
   *     {@code queue}, {@code rule}, ...), in a stable order; empty when it is about the scheduler
   */
  public LoopEvent {
    fields =
        fields == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
  }

  /** An event without fields. */
  public LoopEvent(Instant time, String type, String reason, String message) {
    this(time, type, reason, message, Map.of());
  }

  /** This event with {@code fields} (empty values left out). */
  public LoopEvent with(Map<String, String> fields) {
    Map<String, String> kept = new java.util.LinkedHashMap<>();
    fields.forEach(
        (k, v) -> {
          if (v != null && !v.isEmpty()) {
            kept.put(k, v);
          }
        });
    return new LoopEvent(time, type, reason, message, kept);
  }

  /** A {@code Normal} event now. */
  public static LoopEvent normal(String reason, String message) {
    return new LoopEvent(Instant.now(), "Normal", reason, message);
  }

  /** A {@code Warning} event now. */
  public static LoopEvent warning(String reason, String message) {
    return new LoopEvent(Instant.now(), "Warning", reason, message);
  }

  /** {@code Warning SchedulingHeld: ...}. */
  @Override
  public String toString() {
    return type + " " + reason + ": " + message;
  }
}
