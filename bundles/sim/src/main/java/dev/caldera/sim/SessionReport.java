package dev.caldera.sim;

import dev.caldera.framework.SessionResult;
import java.util.List;
import java.util.Map;

/**
 * What one session of a run decided.
 *
 * @param index 1-based
 * @param podGroupPhaseChanges pod group key → its new phase, for the groups whose phase changed
 * @param waiting the pod groups still waiting after the session, in line order, with blockers
 */
public record SessionReport(
    int index,
    double durationMillis,
    List<SessionResult.Bind> binds,
    List<SessionResult.Eviction> evictions,
    List<SessionResult.Pipelined> pipelined,
    Map<String, String> podGroupPhaseChanges,
    List<SessionResult.Event> events,
    SessionResult.SessionStats stats,
    List<SessionResult.Waiting> waiting) {

  public SessionReport {
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
  }

  /** A session report without waiting pod groups. */
  public SessionReport(
      int index,
      double durationMillis,
      List<SessionResult.Bind> binds,
      List<SessionResult.Eviction> evictions,
      List<SessionResult.Pipelined> pipelined,
      Map<String, String> podGroupPhaseChanges,
      List<SessionResult.Event> events,
      SessionResult.SessionStats stats) {
    this(
        index,
        durationMillis,
        binds,
        evictions,
        pipelined,
        podGroupPhaseChanges,
        events,
        stats,
        List.of());
  }

  /**
   * One entry per waiting pod group, for a person, its figures and counts on indented lines after
   * it: {@code ml/train-7: 2nd in queue training; blocked at enqueue: queue training: cpu requested
   * 8, allocated 60 of realCapability 64 (plugin proportion)}.
   */
  public List<String> explain() {
    List<String> out = new java.util.ArrayList<>();
    for (SessionResult.Waiting w : waiting) {
      var b = w.blocker();
      StringBuilder sb = new StringBuilder(w.podGroup()).append(": ");
      if (w.position() > 0) {
        sb.append(ordinal(w.position())).append(" in queue ").append(w.queue());
      } else {
        sb.append("in no line");
      }
      sb.append("; blocked");
      if (!b.action().isEmpty()) {
        sb.append(" at ").append(b.action());
      }
      sb.append(": ").append(b.message());
      if (!b.plugin().isEmpty() && !b.message().contains(b.plugin())) {
        sb.append(" (plugin ").append(b.plugin()).append(')');
      }
      b.details().forEach(d -> sb.append("\n    ").append(d));
      out.add(sb.toString());
    }
    return out;
  }

  /** {@code 1st}, {@code 2nd}, {@code 3rd}, {@code 11th}… */
  public static String ordinal(int n) {
    int mod100 = n % 100;
    if (mod100 >= 11 && mod100 <= 13) {
      return n + "th";
    }
    return n
        + switch (n % 10) {
          case 1 -> "st";
          case 2 -> "nd";
          case 3 -> "rd";
          default -> "th";
        };
  }
}
