package dev.caldera.runtime.policy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One case of a {@code <name>.cases.yaml} file.
 *
 * @param reclaimer for a reclaim case, else null
 * @param candidate for a reclaim case, else null
 * @param queue for a preemptive case: the queue's name, else null
 * @param task for a preemptive case, else null
 * @param queues the file's queues with this case's own on top (name → spec)
 * @param line the line of the rule that must decide, or null
 */
public record PolicyCase(
    String name,
    JsonNode reclaimer,
    JsonNode candidate,
    String queue,
    JsonNode task,
    JsonNode queues,
    String now,
    boolean expectAllow,
    Integer line) {

  /** Whether this is a reclaim case (else a preemptive one). */
  public boolean isReclaim() {
    return reclaimer != null;
  }
}
