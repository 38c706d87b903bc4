package dev.caldera.framework.loop;

import java.time.Instant;

/**
 * Something operators should know about, such as a plugin loaded or missing, a conf rejected, or a
 * bundle that could not be installed.
 *
 * @param type {@code Normal} or {@code Warning}, as Kubernetes events
 * @param reason a short CamelCase word, such as {@code SchedulingHeld}
 */
public record LoopEvent(Instant time, String type, String reason, String message) {

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
