package dev.caldera.api.model;

import java.time.Instant;

/**
 * A pod (or pod group) condition.
 *
 * @param lastTransitionTime when the status last changed, or null when unknown (cdp reads it on
 *     {@code PodScheduled}); Volcano ignores it when it compares conditions
 */
public record PodCondition(
    String type, String status, String reason, String message, Instant lastTransitionTime) {

  /** A condition without a transition time. */
  public PodCondition(String type, String status, String reason, String message) {
    this(type, status, reason, message, null);
  }
}
