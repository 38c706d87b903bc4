package dev.caldera.kube;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.kube.internal.ApiErrors;
import dev.caldera.kube.internal.ApiTrouble;
import dev.caldera.kube.internal.Clients;
import dev.caldera.kube.internal.ClusterCache;
import dev.caldera.kube.internal.Counters;
import dev.caldera.kube.internal.EventRecorder;
import dev.caldera.kube.internal.Informers;
import dev.caldera.kube.internal.KubeWriter;
import dev.caldera.kube.internal.MetricsPoller;
import dev.caldera.kube.internal.QueueStates;
import dev.caldera.kube.internal.ScenarioExporter;
import dev.caldera.kube.internal.WriteQueue;
import dev.caldera.kube.internal.WriteThrottle;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A real cluster as the scheduler's {@link ClusterSource} and {@link ClusterWriter}.
 *
 * <p>Reading: shared informers on Nodes, Pods, PriorityClasses, PodDisruptionBudgets,
 * ResourceQuotas, Namespaces and Volcano's Queues and PodGroups feed an in-memory view; {@link
 * #snapshot()} copies it (no API call), with the simulator's admission defaults (priorities,
 * implicit pod groups, the default queue). Pods of the configured scheduler names are scheduled;
 * pods of other schedulers only occupy their nodes. Node usage comes from {@code metrics.k8s.io}
 * when it is served. A dropped watch is re-established; once the API server was out of reach (a
 * request without an answer, a read answered 5xx), {@link #status()} is not ready until every
 * informer has caught up with the server.
 *
 * <p>Writing: {@link #apply} returns at once; binds ({@code pods/binding}), evictions (Eviction
 * API, else delete), pod conditions, pod group and queue status and events are sent by a bounded
 * pool, in order per object, retried with backoff on transient errors. A bind that fails for good
 * leaves its pod pending for the next session and is counted; a pod is never bound twice. Writes
 * are only sent while the {@linkplain #setWriteGate write gate} is open (the leader check).
 *
 * <p>Thread-safe. Nothing here exposes fabric8 types.
 */
public final class KubeCluster implements ClusterSource, ClusterWriter, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(KubeCluster.class.getName());

  /**
   * How long a session's report (a pending pod's condition, a pod group's or queue's status, a
   * warning about a waiting gang or pod) is held back before its latest version is written: at most
   * one write per object a period (Volcano's default, 1 s), however often sessions run (see {@link
   * WriteThrottle}).
   */
  private static final Duration REPORT_INTERVAL = Duration.ofSeconds(1);

  /** How many events are written at once. */
  private static final int EVENT_CONCURRENCY = 4;

  /** The events that may wait to be written (client-go's {@code maxQueuedEvents}). */
  private static final int EVENTS_WAITING = 1_000;

  /** How long {@link #close()} waits for the binds, evictions and statuses already queued. */
  private static final Duration STOP_DRAIN = Duration.ofSeconds(10);

  /**
   * How long {@link #close()} then gives the events still queued; the rest are dropped. A start
   * with a backlog queues up to {@link #EVENTS_WAITING} {@code Scheduled} events, seconds of writes
   * on a busy API server, and waiting for them would hold the lease from the next leader.
   */
  private static final Duration EVENTS_AT_STOP = Duration.ofSeconds(1);

  /**
   * How long a status check or a snapshot waits for the cache to receive a list the informers are
   * handing over.
   */
  private static final Duration DELIVERY_WAIT = Duration.ofSeconds(2);

  /** How long {@link #connect} waits for its first request before starting the informers anyway. */
  private static final Duration WARM_UP_WAIT = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final KubeOptions options;
  private final Set<String> schedulerNames;
  private final Clock clock;
  private final Counters counters = new Counters();
  private final KubeCounters counterView = new CounterView(counters);
  private final ClusterCache cache;
  private final Informers informers;
  private final WriteQueue writes;
  private final WriteQueue eventWrites;
  private final KubeWriter writer;
  private final QueueStates queueStates;
  private final MetricsPoller metrics;

  /**
   * Counts the events after which the cache may be behind the API server (an informer's list or
   * watch failing, a bind or a lease request without an answer); {@link #caughtUp} is the count the
   * last catch-up check passed at.
   */
  private final AtomicLong mayBeBehind = new AtomicLong();

  private volatile long caughtUp;
  private volatile LeaderElection election;
  private ScheduledExecutorService poller;
  private final ScheduledExecutorService throttleTimer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "caldera-kube-throttle");
            t.setDaemon(true);
            return t;
          });
  private final WriteThrottle statusThrottle = new WriteThrottle(throttleTimer, REPORT_INTERVAL);
  private final WriteThrottle warningThrottle = new WriteThrottle(throttleTimer, REPORT_INTERVAL);

  private KubeCluster(KubernetesClient client, boolean ownsClient, KubeOptions options) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.options = options;
    this.schedulerNames = Set.copyOf(new LinkedHashSet<>(options.schedulerNames()));
    this.clock = Clock.systemUTC();
    this.cache = new ClusterCache(schedulerNames);
    this.informers = new Informers(client, cache, counters);
    this.writes =
        new WriteQueue(
            options.writeConcurrency(),
            options.maxAttempts(),
            options.initialBackoff(),
            options.maxBackoff(),
            counters);
    // Events have a queue of their own, and a narrow one: on a busy API server every event sent
    // beside the binds delays them (client-go's event broadcaster, kube-scheduler's, writes one
    // at a time). A burst of Scheduled events waits in memory and is written after the binds; past
    // EVENTS_WAITING, events are dropped and counted, as client-go's broadcaster drops them past
    // its 1,000 queued: on an API server slower than the binds the queue would otherwise grow
    // without end (247,108 writes were waiting after an hour of 100 to 300 binds a second on a
    // slow two-core machine), and the writes of events long stale take the CPU of the new ones.
    this.eventWrites =
        new WriteQueue(
            Math.min(EVENT_CONCURRENCY, options.writeConcurrency()),
            options.maxAttempts(),
            options.initialBackoff(),
            options.maxBackoff(),
            EVENTS_WAITING,
            counters);
    EventRecorder events =
        new EventRecorder(
            client,
            eventWrites,
            warningThrottle,
            counters,
            clock,
            options.reportingController(),
            options.identity());
    this.queueStates = new QueueStates(client, cache, informers);
    this.writer =
        new KubeWriter(
            client, cache, informers, writes, events, statusThrottle, counters, clock, queueStates);
    this.metrics = new MetricsPoller(client, cache);
    informers.onWatchError(this::mayBeBehind);
    writer.setGate(this::current);
    writer.onUnknownOutcome(this::mayBeBehind);
  }

  /**
   * Connects with {@code options} and starts the informers; call {@link #awaitSync} before the
   * first snapshot.
   *
   * @throws IOException if the kubeconfig cannot be read
   */
  public static KubeCluster connect(KubeOptions options) throws IOException {
    ApiTrouble trouble = new ApiTrouble();
    KubernetesClient client =
        Clients.create(
            options.kubeconfig(),
            options.context(),
            options.apiQps(),
            options.apiBurst(),
            options.httpWatches(),
            trouble);
    return start(client, true, options, trouble);
  }

  /** A cluster on an existing client (tests); closing the cluster leaves the client open. */
  static KubeCluster connect(KubernetesClient client, KubeOptions options) {
    return start(client, false, options, new ApiTrouble());
  }

  /**
   * A cluster on an existing client built with {@code trouble} on its HTTP clients ({@link
   * ApiTrouble#on}); closing the cluster leaves the client open.
   */
  static KubeCluster connect(KubernetesClient client, ApiTrouble trouble, KubeOptions options) {
    return start(client, false, options, trouble);
  }

  private static KubeCluster start(
      KubernetesClient client, boolean owns, KubeOptions options, ApiTrouble trouble) {
    KubeCluster cluster = new KubeCluster(client, owns, options);
    trouble.listen(cluster::mayBeBehind);
    cluster.start();
    return cluster;
  }

  /** Starts the informers, the queue state checks and the metrics poller. */
  private synchronized void start() {
    if (ownsClient) {
      openConnection();
    }
    informers.start();
    queueStates.check();
    long recheck = QueueStates.RECHECK.toMillis();
    throttleTimer.scheduleWithFixedDelay(
        queueStates::check, recheck, recheck, TimeUnit.MILLISECONDS);
    Duration interval = options.metricsInterval();
    if (!interval.isZero() && !interval.isNegative()) {
      poller =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "caldera-kube-metrics");
                t.setDaemon(true);
                return t;
              });
      poller.scheduleWithFixedDelay(metrics::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Sends one small request (a list of at most one node) and waits for it, up to {@link
   * #WARM_UP_WAIT}. The JDK client pools an HTTP/2 connection only once one has been made: the
   * dozen informers starting at once without it would each open a connection of their own, a TLS
   * handshake each on a JVM that has not compiled its crypto yet. A failure is left to the
   * informers, which report and retry it.
   */
  private void openConnection() {
    CompletableFuture<?> first =
        CompletableFuture.runAsync(
            () -> client.nodes().list(new ListOptionsBuilder().withLimit(1L).build()),
            r -> {
              Thread t = new Thread(r, "caldera-kube-connect");
              t.setDaemon(true);
              t.start();
            });
    // Meanwhile this thread builds the readers the informers' first lists need.
    informers.prepareReaders();
    try {
      first.get(WARM_UP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(Level.DEBUG, "the first request did not answer: {0}", e.toString());
    }
  }

  /**
   * The cache may be behind the API server (it was out of reach for a while): no session starts and
   * no bind is sent until {@link #status()} has seen every informer catch up.
   */
  private void mayBeBehind() {
    mayBeBehind.incrementAndGet();
  }

  /** Whether the cache is known to hold what the API server held after the last reconnect. */
  private boolean current() {
    return caughtUp == mayBeBehind.get();
  }

  /**
   * Waits until every informer has listed once and the cache holds every object of those lists;
   * false on timeout.
   */
  public boolean awaitSync(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (!informers.awaitSync(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return false;
    }
    return cache.awaitListsDelivered(Math.max(0, deadline - System.nanoTime()));
  }

  /**
   * Ready when the informers have listed, the cache holds their last lists in full (waiting up to
   * two seconds for it) and, with leader election, this replica leads; standby while another
   * replica leads; not ready otherwise, with the reason.
   */
  @Override
  public SourceStatus status() {
    SourceStatus cacheStatus;
    try {
      cacheStatus = cacheStatus();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return SourceStatus.notReady("interrupted while waiting for the cache");
    }
    LeaderElection e = election;
    if (!cacheStatus.isReady() || e == null) {
      return cacheStatus;
    }
    return e.status();
  }

  /**
   * Ready once every informer has listed and the cache holds each informer's last list in full;
   * waits up to two seconds for lists in flight and up to two more for the cache to catch up. Not
   * ready (with the reason) otherwise.
   */
  private SourceStatus cacheStatus() throws InterruptedException {
    List<String> unsynced = informers.unsynced();
    // At start the loop asks once a period: waiting here for lists in flight lets the first session
    // start as soon as they are in, not up to a period later.
    if (!unsynced.isEmpty()
        && informers.awaitSync(DELIVERY_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
      unsynced = informers.unsynced();
    }
    if (!unsynced.isEmpty()) {
      // Only Volcano's kinds left: most likely their CRDs are missing, not slow.
      boolean onlyVolcano = List.of("queues", "podgroups").containsAll(unsynced);
      return SourceStatus.notReady(
          "waiting for the informers of "
              + String.join(", ", unsynced)
              + " to list"
              + (onlyVolcano ? " (are Volcano's Queue and PodGroup CRDs installed?)" : ""));
    }
    if (!cache.awaitListsDelivered(DELIVERY_WAIT.toNanos())) {
      return SourceStatus.notReady(
          "the cache is still receiving the list of " + String.join(", ", cache.listing()));
    }
    long marked = mayBeBehind.get();
    if (caughtUp != marked) {
      List<String> behind;
      try {
        behind = informers.behind();
      } catch (Informers.CatchUpFailed e) {
        return SourceStatus.notReady(
            "cannot check that the informers have caught up with the API server: "
                + e.getMessage());
      } catch (RuntimeException e) {
        return SourceStatus.notReady(
            "cannot read the API server to check that the informers have caught up: "
                + ApiErrors.describe(e));
      }
      if (!behind.isEmpty()) {
        return SourceStatus.notReady(
            "catching up with the API server after a reconnect: the informers of "
                + String.join(", ", behind)
                + " are behind it");
      }
      caughtUp = marked;
      if (mayBeBehind.get() != marked) {
        return SourceStatus.notReady("catching up with the API server after a reconnect");
      }
    }
    return SourceStatus.ready();
  }

  /** Whether every informer has listed once (sessions may run). */
  public boolean isSynced() {
    return informers.synced();
  }

  /** The informers that have not listed yet, e.g. {@code queues} when Volcano's CRDs are absent. */
  public List<String> unsynced() {
    return informers.unsynced();
  }

  /** Whether the metrics API answered the last time it was read. */
  public boolean metricsServed() {
    return metrics.served();
  }

  /**
   * A pending pod of its scheduler names added or changed in what it asks for, a pod finished or
   * deleted, a node, pod group or queue added, changed (beyond its status) or removed, or any other
   * kind it informs on changed; never the echo of its own writes.
   */
  @Override
  public void onWorkArrived(Runnable listener) {
    cache.onWork(listener);
  }

  /**
   * A consistent snapshot from the informers' state: the cache once it holds every informer's last
   * list (waiting up to two seconds for one being handed over).
   *
   * @throws IllegalStateException before the informers have synced, or while a list is still being
   *     handed over after the wait
   */
  @Override
  public ClusterSnapshot snapshot() {
    if (!informers.synced()) {
      throw new IllegalStateException(
          "the informers have not synced yet: " + String.join(", ", informers.unsynced()));
    }
    long deadline = System.nanoTime() + DELIVERY_WAIT.toNanos();
    while (true) {
      try {
        return cache.snapshot(schedulerNames, clock.instant());
      } catch (IllegalStateException listing) {
        // A relist began between the loop's status check and this snapshot: wait for it.
        try {
          if (!cache.awaitListsDelivered(deadline - System.nanoTime())) {
            throw listing;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw listing;
        }
      }
    }
  }

  /**
   * The cluster as the informers hold it, written as a scenario file that {@code caldera simulate}
   * runs unchanged (what {@code GET /api/snapshot} serves).
   */
  public String exportScenario(ClusterExport.Request request) {
    List<String> unsynced = informers.unsynced();
    if (!unsynced.isEmpty()) {
      throw new IllegalStateException(
          "the informers of " + String.join(", ", unsynced) + " have not listed yet");
    }
    return new ScenarioExporter(
            informers::listed,
            client.getKubernetesSerialization(),
            schedulerNames,
            cache.nodeMetrics())
        .scenario(request, clock.instant());
  }

  /**
   * Closes, drains or opens a queue where Caldera keeps queue states (no Volcano installed: the
   * standalone install); refuses beside Volcano, saying what to run instead. See {@link
   * QueueLifecycle}.
   */
  public QueueLifecycle.Outcome queueCommand(String name, QueueLifecycle.Command command) {
    return queueStates.apply(name, command);
  }

  /**
   * How long a bind waits for the cluster's volume controllers to bind its pod's claims before it
   * fails and the pod goes back to pending (default 600 s, kube-scheduler's {@code
   * bindTimeoutSeconds}).
   */
  public void setVolumeBindTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the volume bind timeout must be positive: " + timeout);
    }
    writer.setVolumeBindTimeout(timeout);
  }

  /** Queues the session's writes and returns; see the class comment. */
  @Override
  public void apply(SessionResult result) {
    writer.apply(result);
  }

  /** Queues the bind at once, while the session goes on (none while the write gate is shut). */
  @Override
  public boolean bindAtCommit(SessionResult.Bind bind) {
    return writer.bindAtCommit(bind);
  }

  /**
   * Writes are sent only while {@code gate} answers true and the cache is current; checked when a
   * session's result is applied and again before each request (a replica that lost the lease sends
   * nothing more). A session decided before a reconnect, or a bind waiting in the queue, is not
   * sent on a view the reconnect made stale (the pod stays pending and the next session, after the
   * catch-up, decides it again).
   */
  public void setWriteGate(BooleanSupplier gate) {
    writer.setGate(() -> current() && gate.getAsBoolean());
  }

  /** The writer's and informers' counters, for metrics. */
  public KubeCounters counters() {
    return counterView;
  }

  /** Waits until no write, event or decision, is queued or running; false on timeout. */
  public boolean awaitWritesIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    return awaitDecisionsWritten(timeout)
        && awaitEventsWritten(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }

  /** Sends the warnings kept back by the throttle, then waits until no event write is left. */
  private boolean awaitEventsWritten(Duration timeout) throws InterruptedException {
    warningThrottle.drain();
    return eventWrites.awaitIdle(timeout);
  }

  /**
   * Waits until the binds, evictions and status writes queued so far have been answered (the
   * statuses kept back by the throttle are sent first); events may still be queued. False on
   * timeout.
   */
  public boolean awaitDecisionsWritten(Duration timeout) throws InterruptedException {
    statusThrottle.drain();
    return writes.awaitIdle(timeout);
  }

  /**
   * The connection's namespace: the pod's own when running in a cluster, else the kubeconfig
   * context's, else {@code default}. Where the leader election lease lives by default.
   */
  public String namespace() {
    String ns = client.getNamespace();
    return ns == null || ns.isEmpty() ? "default" : ns;
  }

  /** The connection (for the plugin bundle sync, which shares it). */
  KubernetesClient client() {
    return client;
  }

  /** The options this cluster was connected with. */
  public KubeOptions options() {
    return options;
  }

  /**
   * Starts leader election on a Lease with this cluster's connection and identity, and closes the
   * write gate whenever this replica is not the leader.
   */
  public LeaderElection leaderElection(LeaderElection.Options election) {
    return leaderElection(election, new LeaderElection.Listener() {});
  }

  /** As {@link #leaderElection(LeaderElection.Options)}, telling {@code listener} of changes. */
  public LeaderElection leaderElection(
      LeaderElection.Options election, LeaderElection.Listener listener) {
    // A lease request that got no answer means the API server was out of reach: the watches may
    // have missed what happened meanwhile, and the first session after waits for the catch-up.
    LeaderElection le =
        LeaderElection.start(client, election, options, listener, this::mayBeBehind);
    setWriteGate(le::isLeader);
    this.election = le;
    return le;
  }

  /**
   * Stops the informers and the writer. Closes the connection after the binds, evictions and
   * statuses of the sessions already run have been sent, or after {@link #STOP_DRAIN} (well inside
   * Kubernetes' default 30 s termination grace period): a decision dropped at stop would leave the
   * server behind the scheduler's last sessions; writes still queued then are dropped. Events get
   * {@link #EVENTS_AT_STOP} more, and those still queued then are dropped, as client-go's event
   * broadcaster's are when its process ends.
   */
  @Override
  public synchronized void close() {
    try {
      if (!awaitDecisionsWritten(STOP_DRAIN)) {
        LOG.log(
            Level.WARNING,
            () ->
                writes.waiting()
                    + " writes not sent within "
                    + STOP_DRAIN.toSeconds()
                    + " s of stopping; the next leader's sessions decide those pods again");
      }
      if (!awaitEventsWritten(EVENTS_AT_STOP)) {
        LOG.log(
            Level.INFO,
            () ->
                "stopping: "
                    + eventWrites.waiting()
                    + " events not written within "
                    + EVENTS_AT_STOP.toSeconds()
                    + " s are dropped (every bind and status was written)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (poller != null) {
      poller.shutdownNow();
    }
    throttleTimer.shutdownNow();
    informers.close();
    writes.close();
    eventWrites.closeNow();
    if (ownsClient) {
      client.close();
    }
  }

  /** The counters as the exported interface reads them (the internal ones know nothing of it). */
  private record CounterView(Counters c) implements KubeCounters {
    @Override
    public long bindsSucceeded() {
      return c.bindsSucceeded();
    }

    @Override
    public long bindsFailed() {
      return c.bindsFailed();
    }

    @Override
    public long bindsRefused() {
      return c.bindsRefused();
    }

    @Override
    public long bindsDropped() {
      return c.bindsDropped();
    }

    @Override
    public long evictionsSucceeded() {
      return c.evictionsSucceeded();
    }

    @Override
    public long evictionsFailed() {
      return c.evictionsFailed();
    }

    @Override
    public long statusWrites() {
      return c.statusWrites();
    }

    @Override
    public long statusWriteFailures() {
      return c.statusWriteFailures();
    }

    @Override
    public long eventsWritten() {
      return c.eventsWritten();
    }

    @Override
    public long eventsDropped() {
      return c.eventsDropped();
    }

    @Override
    public long retries() {
      return c.retries();
    }

    @Override
    public long watchErrors() {
      return c.watchErrors();
    }

    @Override
    public long writesInFlight() {
      return c.writesInFlight();
    }
  }
}
