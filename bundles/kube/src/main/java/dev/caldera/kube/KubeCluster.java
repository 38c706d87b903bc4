package dev.caldera.kube;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.kube.internal.ApiTrouble;
import dev.caldera.kube.internal.Clients;
import dev.caldera.kube.internal.KubeBackend;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
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

  private final KubeBackend backend;
  private final KubeOptions options;
  private volatile LeaderElection election;

  private KubeCluster(KubeBackend backend, KubeOptions options) {
    this.backend = backend;
    this.options = options;
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
    KubeBackend backend =
        new KubeBackend(
            client,
            owns,
            new KubeBackend.Settings(
                new LinkedHashSet<>(options.schedulerNames()),
                options.writeConcurrency(),
                options.maxAttempts(),
                options.initialBackoff(),
                options.maxBackoff(),
                options.metricsInterval(),
                options.reportingController(),
                options.identity()),
            Clock.systemUTC());
    trouble.listen(backend::mayBeBehind);
    backend.start();
    return new KubeCluster(backend, options);
  }

  /**
   * Waits until every informer has listed once and the cache holds every object of those lists;
   * false on timeout.
   */
  public boolean awaitSync(Duration timeout) throws InterruptedException {
    return backend.awaitSync(timeout);
  }

  /**
   * Ready when the informers have listed, the cache holds their last lists in full (waiting up to
   * two seconds for it) and, with leader election, this replica leads; standby while another
   * replica leads; not ready otherwise, with the reason.
   */
  @Override
  public SourceStatus status() {
    SourceStatus cache;
    try {
      cache = backend.status();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return SourceStatus.notReady("interrupted while waiting for the cache");
    }
    LeaderElection e = election;
    if (!cache.isReady() || e == null) {
      return cache;
    }
    return e.status();
  }

  /** Whether every informer has listed once (sessions may run). */
  public boolean isSynced() {
    return backend.synced();
  }

  /** The informers that have not listed yet, e.g. {@code queues} when Volcano's CRDs are absent. */
  public List<String> unsynced() {
    return backend.unsynced();
  }

  /** Whether the metrics API answered the last time it was read. */
  public boolean metricsServed() {
    return backend.metricsServed();
  }

  /**
   * A pending pod of its scheduler names added or changed in what it asks for, a pod finished or
   * deleted, a node, pod group or queue added, changed (beyond its status) or removed, or any other
   * kind it informs on changed; never the echo of its own writes.
   */
  @Override
  public void onWorkArrived(Runnable listener) {
    backend.onWorkArrived(listener);
  }

  /**
   * A consistent snapshot from the informers' state.
   *
   * @throws IllegalStateException before the informers have synced
   */
  @Override
  public ClusterSnapshot snapshot() {
    return backend.snapshot();
  }

  /**
   * The cluster as the informers hold it, written as a scenario file that {@code caldera simulate}
   * runs unchanged (what {@code GET /api/snapshot} serves).
   */
  public String exportScenario(ClusterExport.Request request) {
    List<String> unsynced = backend.unsynced();
    if (!unsynced.isEmpty()) {
      throw new IllegalStateException(
          "the informers of " + String.join(", ", unsynced) + " have not listed yet");
    }
    return backend.exportScenario(request);
  }

  /**
   * Closes, drains or opens a queue where Caldera keeps queue states (no Volcano installed: the
   * standalone install); refuses beside Volcano, saying what to run instead. See {@link
   * QueueLifecycle}.
   */
  public QueueLifecycle.Outcome queueCommand(String name, QueueLifecycle.Command command) {
    return backend.queueCommand(name, command);
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
    backend.setVolumeBindTimeout(timeout);
  }

  /** Queues the session's writes and returns; see the class comment. */
  @Override
  public void apply(SessionResult result) {
    backend.apply(result);
  }

  /**
   * Writes are sent only while {@code gate} answers true; checked when a session's result is
   * applied and again before each request (a replica that lost the lease sends nothing more).
   */
  public void setWriteGate(BooleanSupplier gate) {
    backend.setWriteGate(gate);
  }

  /** The writer's and informers' counters, for metrics. */
  public KubeCounters counters() {
    return backend.counters();
  }

  /** Waits until no write is queued or running; false on timeout. */
  public boolean awaitWritesIdle(Duration timeout) throws InterruptedException {
    return backend.awaitWritesIdle(timeout);
  }

  /**
   * The connection's namespace: the pod's own when running in a cluster, else the kubeconfig
   * context's, else {@code default}. Where the leader election lease lives by default.
   */
  public String namespace() {
    String ns = backend.client().getNamespace();
    return ns == null || ns.isEmpty() ? "default" : ns;
  }

  /** The connection (for the plugin bundle sync, which shares it). */
  KubernetesClient client() {
    return backend.client();
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
        LeaderElection.start(backend.client(), election, options, listener, backend::mayBeBehind);
    setWriteGate(le::isLeader);
    this.election = le;
    return le;
  }

  /** Stops the informers and the writer (queued writes not yet sent are dropped). */
  @Override
  public void close() {
    backend.close();
  }
}
