package dev.caldera.plugins.capacity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the plugin has already said about the queue tree, kept across sessions so that a warning is
 * reported once per change. A report is keyed by its queue and kind; it is reported again only when
 * its message changes, or when it disappears for a session and comes back. Thread-safe: one
 * instance lives in the factory and is shared by every session's plugin.
 */
final class QueueReports {

  /**
   * A warning about one queue.
   *
   * @param kind what is wrong, the key together with the queue (e.g. {@code cycle})
   * @param reason the event reason
   */
  record Report(String queue, String kind, String reason, String message) {
    String key() {
      return queue + '\u0000' + kind;
    }
  }

  private Map<String, String> reported = new HashMap<>();

  /**
   * Takes this session's reports and returns those not reported before with the same message;
   * forgets the ones that no longer hold.
   */
  synchronized List<Report> changed(List<Report> current) {
    Map<String, String> next = new HashMap<>();
    List<Report> out = new ArrayList<>();
    for (Report r : current) {
      if (next.putIfAbsent(r.key(), r.message()) != null) {
        continue;
      }
      if (!r.message().equals(reported.get(r.key()))) {
        out.add(r);
      }
    }
    reported = next;
    return out;
  }
}
