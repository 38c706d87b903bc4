package dev.caldera.framework.loop;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One session the loop ran.
 *
 * @param index 1 for the first session of the loop
 * @param binds {@code namespace/pod → node}, in decision order
 * @param evictions evicted pods ({@code namespace/pod}), in decision order
 * @param plugins plugin name → the bundle (symbolic name and version) whose factory made it, in
 *     conf order
 * @param pendingByQueue queue → tasks still pending after the session
 * @param actionNanos action → nanoseconds it ran in the session, in conf order
 * @param functionNanos {@code plugin/point} → nanoseconds spent in that plugin function
 */
public record SessionRecord(
    long index,
    String uid,
    Instant started,
    double millis,
    List<Bind> binds,
    List<String> evictions,
    int pipelined,
    Map<String, String> plugins,
    Map<String, Long> pendingByQueue,
    Map<String, Long> actionNanos,
    Map<String, Long> functionNanos) {

  public SessionRecord {
    binds = List.copyOf(binds);
    evictions = List.copyOf(evictions);
    plugins = Collections.unmodifiableMap(new LinkedHashMap<>(plugins));
    pendingByQueue = Collections.unmodifiableMap(new TreeMap<>(pendingByQueue));
    actionNanos =
        actionNanos == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(actionNanos));
    functionNanos =
        functionNanos == null
            ? Map.of()
            : Collections.unmodifiableMap(new TreeMap<>(functionNanos));
  }

  /** A session without timings. */
  public SessionRecord(
      long index,
      String uid,
      Instant started,
      double millis,
      List<Bind> binds,
      List<String> evictions,
      int pipelined,
      Map<String, String> plugins,
      Map<String, Long> pendingByQueue) {
    this(
        index,
        uid,
        started,
        millis,
        binds,
        evictions,
        pipelined,
        plugins,
        pendingByQueue,
        Map.of(),
        Map.of());
  }

  /** A pod bound to a node. */
  public record Bind(String pod, String node, String queue, double waitedSeconds) {

    /**
     * @param queue the pod's queue, empty when unknown
     * @param waitedSeconds from the pod's creation to the session that bound it; negative when
     *     unknown
     */
    public Bind {
      queue = queue == null ? "" : queue;
    }

    /** A bind without its queue and wait. */
    public Bind(String pod, String node) {
      this(pod, node, "", -1);
    }
  }
}
