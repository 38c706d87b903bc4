package dev.caldera.framework.loop;

import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What the running scheduler reports: published as a service by the scheduling loop. Every method
 * returns an immutable copy and may be called from any thread.
 */
@ProviderType
public interface SchedulerMonitor {

  /** Whether sessions run, and if not, why. */
  Health health();

  /** The last {@code max} sessions, oldest first. */
  List<SessionRecord> sessions(int max);

  /** The last {@code max} events, oldest first. */
  List<LoopEvent> events(int max);

  /** The conf in force. */
  ConfStatus conf();

  /** Policy file name → the source text sessions see (the last good version of each file). */
  Map<String, String> policies();

  /**
   * The recent disagreements of policies in audit mode, most recently seen last (at most a few
   * hundred); empty without audited policies.
   */
  default List<AuditDisagreement> auditDisagreements() {
    return List.of();
  }

  /** Counters and gauges for the metrics endpoint. */
  LoopMetrics metrics();

  /** For each plugin and the bundle that served it, how many sessions it served. */
  List<PluginUse> pluginUses();

  /**
   * Records an event that happened outside the loop (a bundle that could not be installed, an admin
   * request), so that it is logged and listed with the loop's own.
   */
  void report(LoopEvent event);

  /** Calls {@code listener} after every session and event, on the thread that produced it. */
  void addListener(Listener listener);

  /** Stops calling {@code listener}. */
  void removeListener(Listener listener);

  /** Notified by the loop; implementations must return quickly and not throw. */
  interface Listener {

    /** A session ran and its decisions were applied. */
    default void sessionCompleted(SessionRecord session) {}

    /** An event was recorded. */
    default void eventRecorded(LoopEvent event) {}
  }
}
