package dev.caldera.kube.internal;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Wires the informers, the cache, the writer and the metrics poller around one client. The public
 * face is {@code dev.caldera.kube.KubeCluster}; this class keeps fabric8 out of it.
 */
public final class KubeBackend implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(KubeBackend.class.getName());

  /**
   * How long a session's report (a pending pod's condition, a pod group's or queue's status, a
   * warning about a waiting gang or pod) is held back before its latest version is written: at most
   * one write per object a period (Volcano's default, 1 s), however often sessions run (see {@link
   * WriteThrottle}).
   */
  static final Duration REPORT_INTERVAL = Duration.ofSeconds(1);

  /** How many events are written at once. */
  static final int EVENT_CONCURRENCY = 4;

  /** How long {@link #close()} waits for the writes already queued. */
  static final Duration STOP_DRAIN = Duration.ofSeconds(10);

  /** Everything the backend is configured with. */
  public record Settings(
      Set<String> schedulerNames,
      int writeConcurrency,
      int maxAttempts,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration metricsInterval,
      String reportingController,
      String reportingInstance) {
    public Settings {
      schedulerNames = Set.copyOf(schedulerNames);
    }
  }

  /**
   * How long a status check or a snapshot waits for the cache to receive a list the informers are
   * handing over.
   */
  private static final Duration DELIVERY_WAIT = Duration.ofSeconds(2);

  private final KubernetesClient client;
  private final Settings settings;
  private final Clock clock;
  private final Counters counters = new Counters();
  private final ClusterCache cache;
  private final Informers informers;
  private final WriteQueue writes;
  private final WriteQueue eventWrites;
  private final KubeWriter writer;
  private final QueueStates queueStates;
  private final MetricsPoller metrics;
  private final boolean ownsClient;

  /**
   * Counts the events after which the cache may be behind the API server (an informer's list or
   * watch failing, a bind or a lease request without an answer); {@link #caughtUp} is the count the
   * last catch-up check passed at.
   */
  private final java.util.concurrent.atomic.AtomicLong mayBeBehind =
      new java.util.concurrent.atomic.AtomicLong();

  private volatile long caughtUp;
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

  public KubeBackend(KubernetesClient client, boolean ownsClient, Settings settings, Clock clock) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.settings = settings;
    this.clock = clock;
    this.cache = new ClusterCache(settings.schedulerNames());
    this.informers = new Informers(client, cache, counters);
    this.writes =
        new WriteQueue(
            settings.writeConcurrency(),
            settings.maxAttempts(),
            settings.initialBackoff(),
            settings.maxBackoff(),
            counters);
    // Events have a queue of their own, and a narrow one: on a busy API server every event sent
    // beside the binds delays them (client-go's event broadcaster, kube-scheduler's, writes one
    // at a time). A burst of Scheduled events waits in memory and is written after the binds.
    this.eventWrites =
        new WriteQueue(
            Math.min(EVENT_CONCURRENCY, settings.writeConcurrency()),
            settings.maxAttempts(),
            settings.initialBackoff(),
            settings.maxBackoff(),
            counters);
    EventRecorder events =
        new EventRecorder(
            client,
            eventWrites,
            warningThrottle,
            counters,
            clock,
            settings.reportingController(),
            settings.reportingInstance());
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
   * The cache may be behind the API server (it was out of reach for a while): no session starts and
   * no bind is sent until {@link #status()} has seen every informer catch up.
   */
  public void mayBeBehind() {
    mayBeBehind.incrementAndGet();
  }

  /** Whether the cache is known to hold what the API server held after the last reconnect. */
  boolean current() {
    return caughtUp == mayBeBehind.get();
  }

  public KubernetesClient client() {
    return client;
  }

  /** How long {@link #start()} waits for its first request before starting the informers anyway. */
  private static final Duration WARM_UP_WAIT = Duration.ofSeconds(2);

  /** Starts the informers and the metrics poller. */
  public synchronized void start() {
    if (ownsClient) {
      openConnection();
    }
    informers.start();
    queueStates.check();
    long recheck = QueueStates.RECHECK.toMillis();
    throttleTimer.scheduleWithFixedDelay(
        queueStates::check, recheck, recheck, TimeUnit.MILLISECONDS);
    if (!settings.metricsInterval().isZero() && !settings.metricsInterval().isNegative()) {
      poller =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "caldera-kube-metrics");
                t.setDaemon(true);
                return t;
              });
      long period = settings.metricsInterval().toMillis();
      poller.scheduleWithFixedDelay(metrics::poll, 0, period, TimeUnit.MILLISECONDS);
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

  /** Waits until every informer has listed and the cache holds each list in full. */
  public boolean awaitSync(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    if (!informers.awaitSync(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return false;
    }
    return cache.awaitListsDelivered(Math.max(0, deadline - System.nanoTime()));
  }

  public boolean synced() {
    return informers.synced();
  }

  public List<String> unsynced() {
    return informers.unsynced();
  }

  /** The objects the informers hold, as a scenario file (see {@link ScenarioExporter}). */
  public String exportScenario(dev.caldera.framework.loop.ClusterExport.Request request) {
    return new ScenarioExporter(
            informers::listed,
            client.getKubernetesSerialization(),
            settings.schedulerNames(),
            cache.nodeMetrics())
        .scenario(request, clock.instant());
  }

  /** An operator's close, drain or open of a queue (see {@link QueueStates}). */
  public dev.caldera.framework.loop.QueueLifecycle.Outcome queueCommand(
      String name, dev.caldera.framework.loop.QueueLifecycle.Command command) {
    return queueStates.apply(name, command);
  }

  public boolean metricsServed() {
    return metrics.served();
  }

  /** Reads the metrics API now (tests; the poller does it every interval). */
  public void pollMetrics() {
    metrics.poll();
  }

  /**
   * Ready once every informer has listed and the cache holds each informer's last list in full;
   * waits up to two seconds for lists in flight and up to two more for the cache to catch up. Not
   * ready (with the reason) otherwise.
   */
  public SourceStatus status() throws InterruptedException {
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

  /**
   * The cache now, once it holds every informer's last list (waiting up to two seconds for one
   * being handed over).
   *
   * @throws IllegalStateException before the informers have synced, or while a list is still being
   *     handed over after the wait
   */
  public ClusterSnapshot snapshot() {
    if (!informers.synced()) {
      throw new IllegalStateException(
          "the informers have not synced yet: " + String.join(", ", informers.unsynced()));
    }
    long deadline = System.nanoTime() + DELIVERY_WAIT.toNanos();
    while (true) {
      try {
        return cache.snapshot(settings.schedulerNames(), clock.instant());
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

  public void apply(SessionResult result) {
    writer.apply(result);
  }

  /** How long a bind waits for its pod's claims to be bound (default 600 s, as kube-scheduler). */
  public void setVolumeBindTimeout(Duration timeout) {
    writer.setVolumeBindTimeout(timeout);
  }

  /**
   * Writes are sent while {@code gate} is true and the cache is current: a session decided before a
   * reconnect, or a bind waiting in the queue, is not sent on a view the reconnect made stale (the
   * pod stays pending and the next session, after the catch-up, decides it again).
   */
  public void setWriteGate(BooleanSupplier gate) {
    writer.setGate(() -> current() && gate.getAsBoolean());
  }

  /** What to call when a change arrives that a session may act on; null for nothing. */
  public void onWorkArrived(Runnable listener) {
    cache.onWork(listener);
  }

  public Counters counters() {
    return counters;
  }

  /** Sends the reports kept back by the throttles, then waits for every write to be answered. */
  public boolean awaitWritesIdle(Duration timeout) throws InterruptedException {
    statusThrottle.drain();
    warningThrottle.drain();
    long deadline = System.nanoTime() + timeout.toNanos();
    return writes.awaitIdle(timeout)
        && eventWrites.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }

  /**
   * Closes the connection after the writes of the sessions already run have been sent, or after
   * {@link #STOP_DRAIN} (well inside Kubernetes' default 30 s termination grace period): a bind or
   * status dropped at stop would leave the server behind the scheduler's last decisions.
   */
  @Override
  public synchronized void close() {
    try {
      if (!awaitWritesIdle(STOP_DRAIN)) {
        LOG.log(
            Level.WARNING,
            () ->
                counters.writesInFlight.sum()
                    + " writes not sent within "
                    + STOP_DRAIN.toSeconds()
                    + " s of stopping; the next leader's sessions decide those pods again");
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
    eventWrites.close();
    if (ownsClient) {
      client.close();
    }
  }
}
