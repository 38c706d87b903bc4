package dev.caldera.framework.internal.loop;

import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.loop.AuditDisagreement;
import dev.caldera.framework.loop.ConfStatus;
import dev.caldera.framework.loop.Health;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.LoopMetrics;
import dev.caldera.framework.loop.PluginUse;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Everything the loop reports, kept for the monitor: recent sessions and events, counters and the
 * gauges of the last session. Thread-safe: the loop writes, any thread reads copies.
 */
final class LoopState implements SchedulerMonitor {

  static final int MAX_SESSIONS = 200;
  static final int MAX_EVENTS = 500;
  private static final double[] SESSION_SECONDS_BOUNDS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private final RunLog log;
  private Map<String, String> pluginsLogged;
  private final ClusterWriter writer;
  private final Clock clock;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final Deque<SessionRecord> sessions = new ArrayDeque<>();
  private final Deque<LoopEvent> events = new ArrayDeque<>();
  private final Histogram sessionSeconds = new Histogram(SESSION_SECONDS_BOUNDS);
  private final Map<String, Long> pluginLoads = new TreeMap<>();
  private final Map<String, Long> pluginUnloads = new TreeMap<>();
  private final Map<List<String>, Long> uses = new LinkedHashMap<>();

  private String state = "starting";
  private List<String> reasons = List.of();
  private List<String> missing = List.of();
  private long sessionCount;
  private Instant lastSession;
  private long binds;
  private long evictions;
  private long confReloads;
  private long confRejections;
  private long policyErrors;
  private List<String> policyFilesInError = List.of();
  private long bundleErrors;
  private QueueFigures figures = QueueFigures.empty();
  private ConfStatus conf = new ConfStatus("", null, null, null, List.of(), List.of());
  private Map<String, String> policies = Map.of();
  private Duration livenessTimeout;
  private Instant lastCycle;
  private Instant nextCycleDue;
  private Duration sessionDeadline;
  private Instant cycleStarted;

  /**
   * @param writer where the accepted binds and evictions are counted, if it counts them (null: the
   *     loop counts its decisions)
   */
  LoopState(RunLog log, ClusterWriter writer) {
    this(log, writer, Clock.systemUTC());
  }

  LoopState(RunLog log, ClusterWriter writer, Clock clock) {
    this.log = log;
    this.writer = writer;
    this.clock = clock;
  }

  static final int MAX_DISAGREEMENTS = 200;
  // message → disagreement, most recently seen last; guarded by this.
  private final LinkedHashMap<String, AuditDisagreement> disagreements = new LinkedHashMap<>();

  // ---- written by the loop ----

  /**
   * A session's {@code PolicyAudit} event; true when it is new (not among the recent ones), so the
   * loop reports it once.
   */
  boolean auditDisagreement(String kind, String object, String message, Instant session) {
    synchronized (this) {
      AuditDisagreement old = disagreements.remove(message);
      disagreements.put(
          message,
          old == null
              ? new AuditDisagreement(kind, object, message, session, session, 1)
              : new AuditDisagreement(
                  kind, object, message, old.firstSeen(), session, old.sessions() + 1));
      while (disagreements.size() > MAX_DISAGREEMENTS) {
        disagreements.remove(disagreements.keySet().iterator().next());
      }
      return old == null;
    }
  }

  @Override
  public synchronized List<AuditDisagreement> auditDisagreements() {
    return List.copyOf(disagreements.values());
  }

  void event(LoopEvent e) {
    synchronized (this) {
      events.addLast(e);
      while (events.size() > MAX_EVENTS) {
        events.removeFirst();
      }
    }
    log.event(e);
    for (Listener l : listeners) {
      l.eventRecorded(e);
    }
  }

  /** Sessions do not run; an event says why when the reasons change. */
  void hold(List<String> why, List<String> missingPlugins) {
    boolean changed;
    synchronized (this) {
      changed = !state.equals("holding") || !reasons.equals(why);
      state = "holding";
      reasons = List.copyOf(why);
      missing = List.copyOf(missingPlugins);
    }
    if (changed) {
      event(LoopEvent.warning("SchedulingHeld", String.join("; ", why)));
    }
  }

  /**
   * No session runs because the cluster source is not ready: {@code standby} while another replica
   * schedules, {@code waiting} otherwise; an event says why when the reason changes.
   */
  void sourceNotReady(SourceStatus status) {
    String next = status.state() == SourceStatus.State.STANDBY ? "standby" : "waiting";
    boolean changed;
    synchronized (this) {
      changed = !state.equals(next) || !reasons.equals(List.of(status.reason()));
      state = next;
      reasons = List.of(status.reason());
      missing = List.of();
    }
    if (changed) {
      event(
          next.equals("standby")
              ? LoopEvent.normal("SchedulingStandby", status.reason())
              : LoopEvent.warning("SchedulingWaiting", status.reason()));
    }
  }

  /** Sessions run; an event says so if they were held, waiting or standing by. */
  void running() {
    boolean resumed;
    synchronized (this) {
      resumed = state.equals("holding") || state.equals("waiting") || state.equals("standby");
      state = "running";
      reasons = List.of();
      missing = List.of();
    }
    if (resumed) {
      event(LoopEvent.normal("SchedulingResumed", "sessions run again"));
    }
  }

  /**
   * The loop starts cycling: a cycle must then finish within {@code timeout}, and so on; a cycle
   * running longer than {@code sessionDeadline} makes the loop not ready (state {@code stuck}).
   */
  synchronized void loopStarted(Duration timeout, Duration sessionDeadline) {
    livenessTimeout = timeout;
    this.sessionDeadline = sessionDeadline;
    nextCycleDue = clock.instant().plus(timeout);
  }

  /** A cycle starts. */
  synchronized void cycleStarted() {
    cycleStarted = clock.instant();
  }

  /** A cycle ended, whatever it did (ran a session, held, or failed and was skipped). */
  synchronized void cycleFinished() {
    cycleStarted = null;
    lastCycle = clock.instant();
    if (livenessTimeout != null) {
      nextCycleDue = lastCycle.plus(livenessTimeout);
    }
  }

  /** Whether the loop is overdue: started, meant to cycle, and no cycle finished in time. */
  private boolean stalled() {
    return nextCycleDue != null && active() && clock.instant().isAfter(nextCycleDue);
  }

  /**
   * Whether the cycle in flight has run past the session deadline: a plugin that hangs, or a
   * cluster that does not answer. Readiness says so long before the liveness timeout restarts.
   */
  private boolean overrunning() {
    return cycleStarted != null
        && sessionDeadline != null
        && active()
        && clock.instant().isAfter(cycleStarted.plus(sessionDeadline));
  }

  private boolean active() {
    return state.equals("starting")
        || state.equals("running")
        || state.equals("holding")
        || state.equals("standby")
        || state.equals("waiting");
  }

  /** Why the loop is not live or not ready, for health reports; empty when it is both. */
  private List<String> livenessReasons() {
    if (state.equals("failed")) {
      return reasons;
    }
    boolean overrunning = overrunning();
    if (!stalled() && !overrunning) {
      return reasons;
    }
    List<String> out = new ArrayList<>(reasons);
    if (overrunning) {
      out.add(
          "a scheduling cycle has run since "
              + cycleStarted
              + ", past the session deadline ("
              + sessionDeadline
              + "): a plugin or the cluster may hang; /healthz fails if it runs past the liveness"
              + " timeout ("
              + livenessTimeout
              + ")");
    }
    if (!stalled()) {
      return out;
    }
    out.add(
        "the scheduling loop has not finished a cycle since "
            + (lastCycle == null ? "it started" : lastCycle)
            + " (liveness timeout "
            + livenessTimeout
            + ")");
    return out;
  }

  /** The loop cannot go on (its thread dies); health says why until the process restarts. */
  void failed(String why) {
    synchronized (this) {
      state = "failed";
      reasons = List.of(why);
    }
    event(LoopEvent.warning("SchedulingFailed", why));
  }

  synchronized void state(String s) {
    state = s;
  }

  synchronized String state() {
    return state;
  }

  private final WaitingBoard board = new WaitingBoard();

  /** Where pending pod groups stand, updated after every session. */
  WaitingBoard board() {
    return board;
  }

  void sessionCompleted(SessionRecord r, QueueFigures f) {
    String logLine;
    synchronized (this) {
      // The plugin bundles and their versions only when they differ from the last logged ones.
      logLine = Lines.session(r, !r.plugins().equals(pluginsLogged));
      pluginsLogged = r.plugins();
      sessions.addLast(r);
      while (sessions.size() > MAX_SESSIONS) {
        sessions.removeFirst();
      }
      sessionCount++;
      lastSession = Instant.now();
      binds += r.binds().size();
      evictions += r.evictions().size();
      sessionSeconds.observe(r.millis() / 1000.0);
      figures = f;
      r.plugins().forEach((name, origin) -> uses.merge(List.of(name, origin), 1L, Long::sum));
    }
    log.session(logLine);
    for (Listener l : listeners) {
      l.sessionCompleted(r);
    }
  }

  synchronized void pluginsChanged(List<String> loaded, List<String> unloaded) {
    loaded.forEach(n -> pluginLoads.merge(n, 1L, Long::sum));
    unloaded.forEach(n -> pluginUnloads.merge(n, 1L, Long::sum));
  }

  synchronized void confChanged(ConfFile.Change change, ConfStatus status) {
    if (change == ConfFile.Change.ACCEPTED) {
      confReloads++;
    } else if (change == ConfFile.Change.REJECTED) {
      confRejections++;
    }
    conf = status;
  }

  synchronized void policies(Map<String, String> inForce, long errors, List<String> filesInError) {
    policies = inForce;
    policyErrors = errors;
    policyFilesInError = List.copyOf(filesInError);
  }

  void logStatus(String line) {
    log.status(line);
  }

  synchronized long sessionCount() {
    return sessionCount;
  }

  // ---- SchedulerMonitor ----

  @Override
  public synchronized Health health() {
    return new Health(
        overrunning() ? "stuck" : state,
        livenessReasons(),
        missing,
        sessionCount,
        lastSession,
        lastCycle,
        !stalled());
  }

  @Override
  public synchronized List<SessionRecord> sessions(int max) {
    return last(sessions, max);
  }

  @Override
  public synchronized List<LoopEvent> events(int max) {
    return last(events, max);
  }

  @Override
  public synchronized ConfStatus conf() {
    return conf;
  }

  @Override
  public synchronized Map<String, String> policies() {
    return policies;
  }

  @Override
  public LoopMetrics metrics() {
    // Asked outside this object's lock: a writer's counters need no lock of ours.
    ClusterWriter.Accepted accepted = writer == null ? null : writer.accepted();
    synchronized (this) {
      return metrics(accepted);
    }
  }

  private LoopMetrics metrics(ClusterWriter.Accepted accepted) {
    return new LoopMetrics(
        sessionCount,
        sessionSeconds.snapshot(),
        accepted == null ? binds : accepted.binds(),
        accepted == null ? evictions : accepted.evictions(),
        figures.pending(),
        figures.allocated(),
        figures.deserved(),
        figures.capability(),
        pluginLoads,
        pluginUnloads,
        policyErrors,
        policyFilesInError,
        confReloads,
        confRejections,
        state.equals("holding"),
        missing,
        bundleErrors);
  }

  @Override
  public synchronized List<PluginUse> pluginUses() {
    List<PluginUse> out = new ArrayList<>();
    uses.forEach((key, n) -> out.add(new PluginUse(key.get(0), key.get(1), n)));
    return out;
  }

  @Override
  public void report(LoopEvent e) {
    if (e.type().equals("Warning") && e.reason().startsWith("Bundle")) {
      synchronized (this) {
        bundleErrors++;
      }
    }
    event(e);
  }

  @Override
  public void addListener(Listener listener) {
    listeners.add(listener);
  }

  @Override
  public void removeListener(Listener listener) {
    listeners.remove(listener);
  }

  private static <T> List<T> last(Deque<T> deque, int max) {
    List<T> all = new ArrayList<>(deque);
    return List.copyOf(all.subList(Math.max(0, all.size() - Math.max(0, max)), all.size()));
  }
}
