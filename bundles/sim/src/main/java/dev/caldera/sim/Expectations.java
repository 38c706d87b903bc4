package dev.caldera.sim;

import dev.caldera.api.resource.Quantity;
import java.util.List;
import java.util.Map;

/**
 * A scenario's {@code expect:} block. A null component asserts nothing; maps keep the file's order.
 *
 * @param bind pod key → node it must have been bound to
 * @param bindCount exact number of binds in the whole run
 * @param evict exactly these pods were evicted, in any order (a multiset)
 * @param evictCount exact number of evictions
 * @param pipelined pod group key → nodes its tasks were pipelined onto in the last session
 * @param podGroupPhase pod group key → phase after the run
 * @param queueAllocated queue name → resources its {@code status.allocated} must hold after the run
 * @param events events that must have been recorded
 * @param noEvents events that must not have been recorded (Caldera's addition to the format: a
 *     warning that must not reach an object)
 * @param volumes claim key → the PersistentVolume bound to it before its pod, or {@code provision}
 *     for a claim provisioned on its pod's node (Caldera's addition to the format)
 */
public record Expectations(
    Map<String, String> bind,
    Integer bindCount,
    List<String> evict,
    Integer evictCount,
    Map<String, List<String>> pipelined,
    Map<String, String> podGroupPhase,
    Map<String, Map<String, Quantity>> queueAllocated,
    List<EventExpectation> events,
    List<EventExpectation> noEvents,
    Map<String, String> volumes) {

  /** The value of {@code volumes} for a claim provisioned on its pod's node. */
  public static final String PROVISION = "provision";

  /** Expectations without {@code volumes}. */
  public Expectations(
      Map<String, String> bind,
      Integer bindCount,
      List<String> evict,
      Integer evictCount,
      Map<String, List<String>> pipelined,
      Map<String, String> podGroupPhase,
      Map<String, Map<String, Quantity>> queueAllocated,
      List<EventExpectation> events,
      List<EventExpectation> noEvents) {
    this(
        bind,
        bindCount,
        evict,
        evictCount,
        pipelined,
        podGroupPhase,
        queueAllocated,
        events,
        noEvents,
        null);
  }

  /** Expectations without {@code noEvents}. */
  public Expectations(
      Map<String, String> bind,
      Integer bindCount,
      List<String> evict,
      Integer evictCount,
      Map<String, List<String>> pipelined,
      Map<String, String> podGroupPhase,
      Map<String, Map<String, Quantity>> queueAllocated,
      List<EventExpectation> events) {
    this(
        bind, bindCount, evict, evictCount, pipelined, podGroupPhase, queueAllocated, events, null);
  }

  /**
   * An event that must (or, under {@code noEvents}, must not) have been recorded: its message
   * contains {@code message}; {@code object} (namespace/name) and {@code reason} match exactly when
   * not null.
   */
  public record EventExpectation(String object, String reason, String message) {
    public EventExpectation {
      message = message == null ? "" : message;
    }
  }
}
