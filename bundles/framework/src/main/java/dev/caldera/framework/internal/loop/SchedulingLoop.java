package dev.caldera.framework.internal.loop;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.host.PolicyChecker;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.internal.session.CarriedStates;
import dev.caldera.framework.internal.session.EvictionMemory;
import dev.caldera.framework.internal.session.PodDigests;
import dev.caldera.framework.internal.session.SessionRunner;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.SessionRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The scheduling loop of {@code caldera run}: a cycle a period after the previous one ended
 * (Volcano's {@code wait.Until(runOnce, schedulePeriod)}), or a debounce after the cluster source
 * said that work arrived, whichever comes first ({@link CycleTimer}).
 *
 * <p>A cycle re-reads the conf file and the policies directory, takes the registry's plugins as
 * they are now, and either runs a session on a fresh snapshot and applies its decisions, or holds
 * when the conf in force names an action or a non-optional plugin that is not loaded. The session
 * keeps the plugins it started with, and holds the live registry so that a bundle leaving waits for
 * it to end.
 */
public final class SchedulingLoop {

  /**
   * What the loop needs to run.
   *
   * @param debounce how long after work arrived a session starts (gathering a burst into one); null
   *     to run every period only
   * @param livenessTimeout how long a cycle may take before health reports the loop as not live
   * @param sessionDeadline how long a cycle may take before readiness reports it ({@code stuck})
   */
  public record Settings(
      Duration period,
      Duration debounce,
      long maxSessions,
      Duration statusInterval,
      Duration livenessTimeout,
      Duration sessionDeadline) {

    /** The default session deadline for this liveness timeout. */
    public Settings(
        Duration period,
        Duration debounce,
        long maxSessions,
        Duration statusInterval,
        Duration livenessTimeout) {
      this(
          period,
          debounce,
          maxSessions,
          statusInterval,
          livenessTimeout,
          defaultSessionDeadline(period, livenessTimeout));
    }

    /** The default liveness timeout: two minutes, or ten periods if that is longer. */
    public Settings(Duration period, Duration debounce, long maxSessions, Duration statusInterval) {
      this(period, debounce, maxSessions, statusInterval, defaultLivenessTimeout(period));
    }

    /** Every period only, never woken by arrivals. */
    public Settings(Duration period, long maxSessions, Duration statusInterval) {
      this(period, null, maxSessions, statusInterval);
    }

    /**
     * 30 seconds or three periods, whichever is longer, and at most the liveness timeout: a session
     * of a large cluster takes seconds, one that hangs is seen well before the restart.
     */
    static Duration defaultSessionDeadline(Duration period, Duration livenessTimeout) {
      Duration threePeriods = period.multipliedBy(3);
      Duration d =
          threePeriods.compareTo(Duration.ofSeconds(30)) > 0
              ? threePeriods
              : Duration.ofSeconds(30);
      return d.compareTo(livenessTimeout) < 0 ? d : livenessTimeout;
    }

    static Duration defaultLivenessTimeout(Duration period) {
      Duration tenPeriods = period.multipliedBy(10);
      Duration twoMinutes = Duration.ofMinutes(2);
      return tenPeriods.compareTo(twoMinutes) > 0 ? tenPeriods : twoMinutes;
    }
  }

  private final PluginRegistry registry;
  private final ClusterSource source;
  private final ClusterWriter writer;
  private final ConfFile confFile;
  private final PolicyDirectory policyDirectory;
  private final Supplier<PolicyChecker> checker;
  private final LoopState state;
  private final Settings settings;
  private final Clock clock;
  private final RegistryWatch registryWatch = new RegistryWatch();
  private final PodDigests podDigests = new PodDigests();
  private final CarriedStates carriedStates = new CarriedStates();
  private final EvictionMemory evictionMemory = new EvictionMemory();
  private final Runnable onFinished;
  private volatile BooleanSupplier shuttingDown = () -> false;
  private ScheduledExecutorService executor;
  private Instant lastStatus;
  private long sessionsAtLastStatus;
  private Set<String> refusalsReported = Set.of();
  private Set<String> invalidReported = Set.of();
  private Set<String> optionalSkipWarned = Set.of();
  private String lastFailure;

  /**
   * @param policyDirectory null when no policies directory is watched
   * @param onFinished called once when {@code maxSessions} sessions ran
   */
  SchedulingLoop(
      PluginRegistry registry,
      ClusterSource source,
      ClusterWriter writer,
      ConfFile confFile,
      PolicyDirectory policyDirectory,
      Supplier<PolicyChecker> checker,
      LoopState state,
      Settings settings,
      Clock clock,
      Runnable onFinished) {
    this.registry = registry;
    this.source = source;
    this.writer = writer;
    this.confFile = confFile;
    this.policyDirectory = policyDirectory;
    this.checker = checker;
    this.state = state;
    this.settings = settings;
    this.clock = clock;
    this.onFinished = onFinished;
  }

  /**
   * Starts cycling on a thread of its own; the first cycle runs at once. With a debounce, the
   * source's word that work arrived brings the next cycle forward.
   */
  public synchronized void start() {
    ScheduledThreadPoolExecutor e =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "caldera-scheduler");
              t.setDaemon(true);
              return t;
            });
    // A stop ends the cycle in flight; the next one, scheduled up to a period ahead, is dropped.
    e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    executor = e;
    lastStatus = clock.instant();
    state.loopStarted(
        settings.livenessTimeout().plus(settings.period()), settings.sessionDeadline());
    CycleTimer timer =
        new CycleTimer(executor, this::cycleSafely, settings.period(), settings.debounce());
    if (settings.debounce() != null) {
      source.onWorkArrived(timer::wake);
    }
    timer.start();
  }

  /**
   * Stops cycling: the session in flight, if any, ends and its decisions are applied; no other
   * session starts. Waits up to {@code timeout}.
   *
   * @return whether the loop stopped in time
   */
  public boolean stop(Duration timeout) {
    ScheduledExecutorService e;
    synchronized (this) {
      e = executor;
    }
    if (e == null) {
      return true;
    }
    source.onWorkArrived(null);
    e.shutdown();
    try {
      boolean inTime = e.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
      confFile.close();
      if (policyDirectory != null) {
        policyDirectory.close();
      }
      return inTime;
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      if (!state.state().equals("finished")) {
        state.state("stopped");
      }
    }
  }

  /** Whether {@link #stop} has begun: from then on, no session starts. */
  synchronized boolean stopping() {
    return executor != null && executor.isShutdown();
  }

  /**
   * One cycle that never ends the loop, except out of memory: any other throwable (a plugin's bug,
   * a {@link StackOverflowError}, a linkage error of a half-gone bundle) is reported and the
   * session skipped, and the next cycle runs as usual.
   */
  void cycleSafely() {
    state.cycleStarted();
    try {
      cycle();
      lastFailure = null;
    } catch (OutOfMemoryError e) {
      // Nothing is safe to try any more; the loop ends, and health says so (the liveness probe
      // restarts the process).
      state.failed("out of memory in a scheduling cycle: " + describe(e));
      throw e;
    } catch (Throwable e) {
      String why = describe(e);
      // The same failure every period is reported once, until a cycle passes or it changes.
      if (!why.equals(lastFailure)) {
        state.event(LoopEvent.warning("SessionFailed", "session skipped: " + why));
      }
      lastFailure = why;
      state.hold(List.of("the last session failed: " + why), List.of());
    }
    state.cycleFinished();
    maybePrintStatus();
    if (settings.maxSessions() > 0 && state.sessionCount() >= settings.maxSessions()) {
      state.state("finished");
      state.event(
          LoopEvent.normal("SchedulingFinished", state.sessionCount() + " sessions ran, as asked"));
      executor.shutdown();
      if (onFinished != null) {
        onFinished.run();
      }
    }
  }

  /**
   * One cycle.
   *
   * @return whether a session ran
   */
  boolean cycle() {
    PluginRegistry.Use use = registry.inUse();
    try {
      FrozenRegistry plugins = FrozenRegistry.of(registry);
      RegistryWatch.Changes changes = registryWatch.update(plugins.origins());
      state.pluginsChanged(changes.loaded(), changes.unloaded());
      changes.events().forEach(state::event);
      registryWatch.refused(registry.refusals()).forEach(state::event);

      ConfFile.Change confChange = confFile.refresh(plugins);
      state.confChanged(confChange, confFile.status());
      Map<String, String> policies = null;
      if (policyDirectory != null) {
        policies = policyDirectory.refresh(checker.get());
        state.policies(policies, policyDirectory.errors(), policyDirectory.filesInError());
      }

      SchedulerConf conf = confFile.conf();
      if (conf == null) {
        state.hold(List.of("no valid conf: " + confFile.error()), List.of());
        return false;
      }
      warnSkippedOptionalPlugins(conf, plugins);
      List<String> missingPlugins = new ArrayList<>();
      List<String> reasons = missing(conf, plugins, missingPlugins);
      if (!reasons.isEmpty()) {
        // Plugins stopping with the framework are not missing: no hold is reported for them.
        if (!missingPlugins.isEmpty() && shuttingDown.getAsBoolean()) {
          return false;
        }
        state.hold(reasons, missingPlugins);
        return false;
      }

      SourceStatus sourceStatus = source.status();
      if (!sourceStatus.isReady()) {
        state.sourceNotReady(sourceStatus);
        return false;
      }
      Instant started = clock.instant();
      ClusterSnapshot snapshot = source.snapshot();
      if (policies != null) {
        snapshot = withPolicies(snapshot, policies);
      }
      SessionResult result;
      List<SessionResult.Bind> sentAtCommit = new ArrayList<>();
      try {
        result =
            new SessionRunner(plugins, conf, podDigests, evictionMemory, carriedStates)
                .handingOverBindsAtCommit(
                    bind -> {
                      if (sendAtCommit(bind)) {
                        sentAtCommit.add(bind);
                      }
                    })
                .run(snapshot);
      } catch (ConfException e) {
        state.hold(withChecking(e.problems()), List.of());
        return false;
      }
      // Only now: a plugin's unmet requirement is found inside runSession, and marking the loop
      // running before it would report a resume and a new hold every cycle.
      state.running();
      reportRefusals(result);
      reportInvalidObjects(result);
      writer.apply(result.withoutBinds(sentAtCommit));
      record(started, conf, plugins, snapshot, result);
      reportEvictions(result);
      reportAuditDisagreements(result, started);
      return true;
    } finally {
      use.close();
    }
  }

  /**
   * Offers the writer a bind the session just committed. A writer that fails on it keeps it for the
   * session's end, where {@link ClusterWriter#apply} gets it and its failure is reported as any
   * other.
   */
  private boolean sendAtCommit(SessionResult.Bind bind) {
    try {
      return writer.bindAtCommit(bind);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * {@code reasons}, after a first one naming the policy files being checked when there are: a
   * policy a plugin misses may be in one of them.
   */
  private List<String> withChecking(List<String> reasons) {
    List<String> checking = policyDirectory == null ? List.of() : policyDirectory.beingChecked();
    if (checking.isEmpty()) {
      return reasons;
    }
    List<String> out = new ArrayList<>();
    out.add(
        "checking policy files "
            + String.join(", ", checking)
            + " (their policies are in force from the cycle after the check)");
    out.addAll(reasons);
    return out;
  }

  /**
   * What says the whole framework is shutting down (its bundles stopping one by one): meanwhile a
   * plugin that disappears is not reported as missing.
   */
  public void shuttingDown(BooleanSupplier shuttingDown) {
    this.shuttingDown = shuttingDown;
  }

  /**
   * Narrates each eviction as one event (who, for whom, the queues, what it frees, the deciding
   * rule): operators read it in the terminal, the log, {@code /api/events} and the console.
   */
  private void reportEvictions(SessionResult result) {
    for (SessionResult.Eviction e : result.evictions()) {
      int slash = e.pod().indexOf('/');
      state.event(
          LoopEvent.normal(EVICTED, e.narrative())
              .with(
                  fields(
                      "object", "Pod/" + e.pod(),
                      "namespace", slash < 0 ? "" : e.pod().substring(0, slash),
                      "queue", e.queue(),
                      "node", e.node(),
                      "action", e.action(),
                      "forPod", e.forPod(),
                      "forQueue", e.forQueue(),
                      "rule", e.rule())));
    }
  }

  /**
   * Keeps each disagreement of a policy in audit mode for {@code /api/policies} and the console,
   * and reports one the recent ones do not hold as an event.
   */
  private void reportAuditDisagreements(SessionResult result, Instant session) {
    for (SessionResult.Event e : result.events()) {
      if (AUDIT.equals(e.reason())
          && state.auditDisagreement(e.kind(), e.object(), e.message(), session)) {
        state.event(
            LoopEvent.normal(AUDIT, e.kind() + " " + e.object() + ": " + e.message())
                .with(objectFields(e)));
      }
    }
  }

  /**
   * Warnings about an object's setting that cannot be honoured, reported as loop events like the
   * {@code Invalid...} ones: capacity-card's card quota or queue guarantee above the cluster's
   * cards, and a pod group that can never fit.
   */
  static final Set<String> MIRRORED =
      Set.of("QuotaAboveInventory", "GuaranteeAboveInventory", "Inadmissible");

  /** Alternating names and values as an ordered map. */
  static Map<String, String> fields(String... namesAndValues) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
      out.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return out;
  }

  /**
   * The object of a session event ({@code Queue/training}, {@code Pod/ns/p}), its namespace when
   * namespaced, and the queue when the object is one.
   */
  static Map<String, String> objectFields(SessionResult.Event e) {
    int slash = e.object().indexOf('/');
    return fields(
        "object", e.kind() + "/" + e.object(),
        "namespace", slash < 0 ? "" : e.object().substring(0, slash),
        "queue", e.kind().equals("Queue") ? e.object() : "");
  }

  /** The reason of the policy plugin's events for audit disagreements. */
  static final String AUDIT = "PolicyAudit";

  /** The reason of the loop event each eviction is. */
  static final String EVICTED = "Evicted";

  /**
   * Reports each object a session refused (a quantity out of bounds, a storage object Kubernetes
   * would not hold or bind) once while it stays so.
   */
  private void reportRefusals(SessionResult result) {
    Set<String> now = new TreeSet<>();
    for (SessionResult.Event e : result.events()) {
      if (SessionRunner.REFUSALS.contains(e.reason()) && now.add(e.message())) {
        if (!refusalsReported.contains(e.message())) {
          state.event(LoopEvent.warning("ObjectRefused", e.message()));
        }
      }
    }
    refusalsReported = now;
  }

  /**
   * Reports each Warning session event about an object's invalid setting (reason {@code Invalid...}
   * e.g. capacity-card's {@code InvalidCardAnnotation} for a bad {@code volcano.sh/card.quota}) as
   * a loop event once while it stays: operators see it in {@code /api/events}, the console and the
   * log, not only on the object.
   */
  private void reportInvalidObjects(SessionResult result) {
    Set<String> now = new TreeSet<>();
    for (SessionResult.Event e : result.events()) {
      if (!"Warning".equals(e.type())
          || !(e.reason().startsWith("Invalid") || MIRRORED.contains(e.reason()))) {
        continue;
      }
      String message = e.kind() + " " + e.object() + ": " + e.message();
      if (now.add(e.reason() + '\u0000' + message)
          && !invalidReported.contains(e.reason() + '\u0000' + message)) {
        state.event(LoopEvent.warning(e.reason(), message).with(objectFields(e)));
      }
    }
    invalidReported = now;
  }

  private static String describe(Throwable e) {
    StringBuilder out = new StringBuilder(e.getClass().getName());
    if (e.getMessage() != null) {
      out.append(": ").append(e.getMessage());
    }
    StackTraceElement[] trace = e.getStackTrace();
    if (trace.length > 0) {
      out.append(" (at ").append(trace[0]).append(')');
    }
    return out.toString();
  }

  /**
   * Warns once (until it is loaded) about each {@code optional: true} plugin of the conf that is
   * not loaded: sessions run without it, and a misspelled name would otherwise go unnoticed.
   */
  private void warnSkippedOptionalPlugins(SchedulerConf conf, PluginRegistry plugins) {
    Set<String> skipped = new TreeSet<>();
    for (int t = 0; t < conf.tiers().size(); t++) {
      for (PluginOption p : conf.tiers().get(t).plugins()) {
        if (!p.optional() || plugins.plugin(p.name()).isPresent()) {
          continue;
        }
        skipped.add(p.name());
        if (!optionalSkipWarned.contains(p.name())) {
          String like = closest(p.name(), plugins.pluginNames());
          state.event(
              LoopEvent.warning(
                  "PluginSkipped",
                  "plugin \""
                      + p.name()
                      + "\" (tiers["
                      + t
                      + "]) is optional and not loaded: sessions run without it"
                      + (like == null ? "" : " (did you mean \"" + like + "\"?)")));
        }
      }
    }
    optionalSkipWarned = skipped;
  }

  /** The loaded name at most two edits from {@code name} (the first of the closest), or null. */
  static String closest(String name, Iterable<String> names) {
    String best = null;
    int bestDistance = 3;
    for (String candidate : names) {
      int d = editDistance(name, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  /** Why {@code conf} cannot run with {@code plugins}; the missing plugin names are added. */
  static List<String> missing(
      SchedulerConf conf, PluginRegistry plugins, List<String> missingPlugins) {
    List<String> reasons = new ArrayList<>();
    for (String action : conf.actions()) {
      if (plugins.action(action).isEmpty()) {
        reasons.add("action \"" + action + "\" is not loaded");
      }
    }
    for (int t = 0; t < conf.tiers().size(); t++) {
      for (PluginOption p : conf.tiers().get(t).plugins()) {
        if (!p.optional()
            && plugins.plugin(p.name()).isEmpty()
            && !missingPlugins.contains(p.name())) {
          missingPlugins.add(p.name());
          reasons.add(
              "plugin \""
                  + p.name()
                  + "\" (tiers["
                  + t
                  + "]) is not loaded; mark it optional: true to schedule without it");
        }
      }
    }
    return reasons;
  }

  private void record(
      Instant started,
      SchedulerConf conf,
      FrozenRegistry plugins,
      ClusterSnapshot snapshot,
      SessionResult result) {
    Map<String, String> used = new LinkedHashMap<>();
    for (String name : conf.pluginNames()) {
      if (plugins.plugin(name).isPresent()) {
        used.put(name, plugins.origin(name));
      }
    }
    QueueFigures figures = QueueFigures.of(snapshot, result);
    List<SessionRecord.Bind> binds = bindsWithWaits(snapshot, result, started);
    List<String> evicted = new ArrayList<>();
    result.evictions().forEach(e -> evicted.add(e.pod()));
    SessionRecord r =
        new SessionRecord(
            state.sessionCount() + 1,
            result.sessionUid(),
            started,
            result.stats() == null ? 0 : result.stats().durationMillis(),
            binds,
            evicted,
            result.pipelined().size(),
            used,
            figures.pending(),
            result.stats() == null ? Map.of() : result.stats().actionNanos(),
            result.stats() == null ? Map.of() : result.stats().functionNanos());
    state.board().update(snapshot, result, figures, started);
    state.sessionCompleted(r, figures);
  }

  /**
   * The session's binds, each with its pod's queue and how long it waited since its creation (for
   * the latency histogram); the pods are looked up only when something was bound.
   */
  static List<SessionRecord.Bind> bindsWithWaits(
      ClusterSnapshot snapshot, SessionResult result, Instant started) {
    List<SessionRecord.Bind> binds = new ArrayList<>();
    if (result.binds().isEmpty()) {
      return binds;
    }
    // A cluster holds far more pods and groups than a session binds: only the snapshot's pending
    // pods can have been bound, and only the groups named by one of them are keyed.
    Map<String, dev.caldera.api.model.Pod> bound = new java.util.HashMap<>();
    result.binds().forEach(b -> bound.put(b.pod(), null));
    java.util.Set<String> groupNames = new java.util.HashSet<>();
    for (dev.caldera.api.model.Pod p : snapshot.pods()) {
      if (p.nodeName().isEmpty() && bound.containsKey(p.key())) {
        bound.put(p.key(), p);
        String group = p.metadata().annotations().get(dev.caldera.api.info.PodFacts.GROUP_NAME);
        if (group != null) {
          groupNames.add(group);
        }
      }
    }
    Map<String, String> queueOf = new java.util.HashMap<>();
    for (dev.caldera.api.model.PodGroup pg : snapshot.podGroups()) {
      if (groupNames.contains(pg.metadata().name())) {
        queueOf.put(pg.key(), pg.queue().isEmpty() ? "default" : pg.queue());
      }
    }
    for (SessionResult.Bind b : result.binds()) {
      dev.caldera.api.model.Pod p = bound.get(b.pod());
      String queue = "";
      double waited = -1;
      if (p != null) {
        queue = queueOf.getOrDefault(dev.caldera.api.info.PodFacts.jobKey(p), "");
        if (queue.isEmpty()) {
          queue =
              p.metadata()
                  .annotations()
                  .getOrDefault("scheduling.volcano.sh/queue-name", "default");
        }
        Instant created = p.metadata().creationTimestamp();
        if (created != null && !created.equals(Instant.EPOCH)) {
          waited = Math.max(0, Duration.between(created, started).toMillis() / 1000.0);
        }
      }
      binds.add(new SessionRecord.Bind(b.pod(), b.node(), queue, waited));
    }
    return binds;
  }

  private void maybePrintStatus() {
    Duration every = settings.statusInterval();
    if (every == null || every.isZero() || every.isNegative()) {
      return;
    }
    Instant now = clock.instant();
    if (Duration.between(lastStatus, now).compareTo(every) < 0) {
      return;
    }
    lastStatus = now;
    long sessions = state.sessionCount();
    state.logStatus(Lines.status(state.health(), state.metrics(), sessions - sessionsAtLastStatus));
    sessionsAtLastStatus = sessions;
  }

  /** {@code snapshot} with {@code policies} added to (and replacing same-named) policy sources. */
  static ClusterSnapshot withPolicies(ClusterSnapshot snapshot, Map<String, String> policies) {
    if (policies.isEmpty()) {
      return snapshot;
    }
    ClusterInfo info = snapshot.info();
    Map<String, String> merged = new TreeMap<>(info.policies());
    merged.putAll(policies);
    return new ClusterSnapshot(
        snapshot.nodes(),
        snapshot.pods(),
        snapshot.podGroups(),
        snapshot.queues(),
        new ClusterInfo(
            info.priorityClasses(),
            info.podDisruptionBudgets(),
            info.resourceQuotas(),
            info.namespaces(),
            info.nodeMetrics(),
            merged),
        snapshot.now());
  }
}
