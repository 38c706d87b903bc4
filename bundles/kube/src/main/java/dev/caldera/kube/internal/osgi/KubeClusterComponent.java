package dev.caldera.kube.internal.osgi;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.kube.KubeCluster;
import dev.caldera.kube.KubeCounters;
import dev.caldera.kube.KubeOptions;
import dev.caldera.kube.LeaderElection;
import dev.caldera.kube.PluginBundles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.Version;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;

/**
 * A real cluster as the scheduling loop's source and writer, once configured (PID {@value #PID}).
 *
 * <p>Only a replica that may schedule runs sessions: {@link #status()} tells the loop to wait until
 * the informers have synced and the cache holds their lists, and with {@code leader.elect} to stand
 * by while another replica holds the lease (or to wait, not ready, while the lease cannot be held
 * at all). The {@link MetricsSource} service puts the API counters and leadership on {@code
 * /metrics}.
 */
@Component(
    configurationPid = KubeClusterComponent.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    immediate = true, // start syncing when configured, not when the loop first asks
    service = {ClusterSource.class, ClusterWriter.class})
public final class KubeClusterComponent implements ClusterSource, ClusterWriter {

  /** The configuration PID. */
  public static final String PID = "dev.caldera.cluster.kube";

  /** The configuration; property names are the method names with dots for underscores. */
  @interface Config {
    /** The kubeconfig file; empty for the in-cluster service account (or the usual places). */
    String kubeconfig() default "";

    /** The kubeconfig context; empty for its current one. */
    String context() default "";

    /** Pods of these scheduler names are scheduled. */
    String[] scheduler_names() default {KubeOptions.DEFAULT_SCHEDULER_NAME};

    /** Schedule only while holding the lease. */
    boolean leader_elect() default false;

    /** The lease's namespace; empty for the connection's (the pod's own in a cluster). */
    String lease_namespace() default "";

    String lease_name() default "caldera-scheduler";

    long lease_duration_ms() default 15_000;

    long renew_deadline_ms() default 10_000;

    long retry_period_ms() default 2_000;

    int write_concurrency() default 64;

    /** The client's requests per second (Volcano's {@code --kube-api-qps}). */
    double api_qps() default KubeOptions.DEFAULT_API_QPS;

    /** The client's burst (Volcano's {@code --kube-api-burst}). */
    int api_burst() default KubeOptions.DEFAULT_API_BURST;

    long metrics_interval_ms() default 30_000;

    /**
     * Watches as streamed HTTP requests on the client's one HTTP/2 connection; false: a WebSocket
     * each (for a server or proxy that does not stream HTTP watches).
     */
    boolean http_watches() default true;

    /** This replica's identity; empty for {@code $POD_NAME} (or the host name) and a suffix. */
    String identity() default "";

    /**
     * The deploy directory the framework watches, where the jars of {@code PluginBundle} objects
     * are written; empty: no plugin bundles from the cluster.
     */
    String plugin_bundles_dir() default "";

    /** The namespace of the {@code PluginBundle} objects; empty for the connection's. */
    String plugin_bundles_namespace() default "";
  }

  /** The first pause before connecting again after a failure; it doubles up to the maximum. */
  static final Duration CONNECT_RETRY_FIRST = Duration.ofSeconds(1);

  static final Duration CONNECT_RETRY_MAX = Duration.ofSeconds(30);

  /** How long a status check waits for the first attempt to connect to end. */
  static final Duration CONNECT_WAIT = Duration.ofSeconds(2);

  private final ExecutorService starter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "caldera-kube-start");
            t.setDaemon(true);
            return t;
          });
  private volatile KubeCluster cluster;
  private ServiceRegistration<KubeCounters> counters;
  private ServiceRegistration<MetricsSource> metrics;
  private ServiceRegistration<ClusterExport> export;
  private ServiceRegistration<QueueLifecycle> queueLifecycle;
  private volatile boolean leaderElect;
  private volatile LeaderElection election;
  private volatile boolean closed;
  private volatile String connectFailure;
  private volatile PluginBundles pluginBundles;
  private final CountDownLatch firstAttempt = new CountDownLatch(1);
  private volatile Runnable workListener;

  /**
   * Connects on the component's own thread: building the client can take long (an {@code exec}
   * credential plugin, a pod with a small CPU limit), and an activation that blocks holds up the
   * framework's start and every component that asks for this one. Until connected, {@link
   * #status()} says it is connecting; if connecting fails, it says why.
   */
  @Activate
  void activate(BundleContext context, Config config) {
    this.leaderElect = config.leader_elect();
    starter.execute(() -> connect(context, config));
  }

  /**
   * Connects, trying again with a growing pause while building the client fails (a credential
   * plugin that failed once, a certificate not mounted yet): the process stays live, so no probe
   * restarts it. Each new reason is printed once.
   */
  private KubeCluster connectWithRetries(Config config) throws InterruptedException {
    long pauseMillis = CONNECT_RETRY_FIRST.toMillis();
    String printed = null;
    while (!closed) {
      try {
        return KubeCluster.connect(options(config));
      } catch (IOException | RuntimeException e) {
        if (closed) {
          break; // stopped while connecting: the interruption is not the cluster's failure
        }
        String failure = "cannot connect: " + rootCause(e);
        if (!failure.equals(printed)) {
          printed = failure;
          System.err.println(
              "error: kubernetes cluster "
                  + (config.kubeconfig().isBlank() ? "(in-cluster)" : config.kubeconfig())
                  + ": "
                  + failure);
        }
        connectFailure = failure + "; trying again";
        firstAttempt.countDown();
      }
      Thread.sleep(pauseMillis);
      pauseMillis = Math.min(pauseMillis * 2, CONNECT_RETRY_MAX.toMillis());
    }
    return null;
  }

  private void connect(BundleContext context, Config config) {
    KubeCluster connected;
    try {
      connected = connectWithRetries(config);
    } catch (InterruptedException e) {
      return;
    }
    if (connected == null) {
      return;
    }
    synchronized (this) {
      if (closed) {
        connected.close();
        return;
      }
      cluster = connected;
      connected.onWorkArrived(this::workArrived);
      firstAttempt.countDown();
      counters = context.registerService(KubeCounters.class, connected.counters(), null);
      metrics =
          context.registerService(
              MetricsSource.class,
              new KubeMetrics(connected.counters(), () -> election, leaderElect),
              null);
      export = context.registerService(ClusterExport.class, connected::exportScenario, null);
      queueLifecycle = context.registerService(QueueLifecycle.class, connected::queueCommand, null);
    }
    System.out.println(
        "cluster: kubernetes"
            + (config.kubeconfig().isBlank() ? " (in-cluster)" : ", " + config.kubeconfig())
            + ", scheduler names "
            + String.join(", ", connected.options().schedulerNames())
            + (config.leader_elect() ? ", leader election" : "")
            + "; waiting for the informers to sync");
    if (!config.plugin_bundles_dir().isBlank()) {
      String ns =
          config.plugin_bundles_namespace().isBlank()
              ? connected.namespace()
              : config.plugin_bundles_namespace();
      synchronized (this) {
        if (closed) {
          return;
        }
        pluginBundles =
            PluginBundles.start(
                connected,
                ns,
                Path.of(config.plugin_bundles_dir()),
                (file, symbolicName, version) -> probe(context, file, symbolicName, version),
                PluginBundles.Timings.defaults());
      }
      System.out.println(
          "cluster: plugin bundles from the PluginBundle objects of "
              + ns
              + " into "
              + config.plugin_bundles_dir());
    }
    start(config);
  }

  private static KubeOptions options(Config config) {
    KubeOptions.Builder options =
        KubeOptions.builder()
            .kubeconfig(config.kubeconfig().isBlank() ? null : Path.of(config.kubeconfig()))
            .context(config.context().isBlank() ? null : config.context())
            .writeConcurrency(config.write_concurrency())
            .apiRate(config.api_qps(), config.api_burst())
            .httpWatches(config.http_watches())
            .metricsInterval(Duration.ofMillis(Math.max(0, config.metrics_interval_ms())));
    for (String name : config.scheduler_names()) {
      options.schedulerName(name);
    }
    if (!config.identity().isBlank()) {
      options.identity(config.identity());
    }
    return options.build();
  }

  /** The bundle FileInstall installed from {@code file}, once it has the expected identity. */
  private static Optional<PluginBundles.Outcome> probe(
      BundleContext context, String file, String symbolicName, String version) {
    for (Bundle b : context.getBundles()) {
      String location = b.getLocation();
      if ((location.endsWith("/" + file) || location.endsWith("\\" + file))
          && symbolicName.equals(b.getSymbolicName())
          && Version.parseVersion(version).equals(b.getVersion())) {
        return Optional.of(
            new PluginBundles.Outcome(
                b.getState() == Bundle.ACTIVE,
                b.getState() == Bundle.ACTIVE
                    ? "ACTIVE"
                    : "state " + b.getState() + " (not resolved or not started)"));
      }
    }
    return Optional.empty();
  }

  private void start(Config config) {
    try {
      while (!closed && !cluster.awaitSync(Duration.ofSeconds(10))) {
        System.out.println(
            "cluster: waiting for the informers of " + String.join(", ", cluster.unsynced()));
      }
    } catch (InterruptedException e) {
      return;
    }
    if (closed) {
      return;
    }
    if (!config.leader_elect()) {
      System.out.println("cluster: " + synced() + "; scheduling");
      workArrived();
      return;
    }
    LeaderElection.Options lease =
        new LeaderElection.Options(
            config.lease_namespace().isBlank() ? cluster.namespace() : config.lease_namespace(),
            config.lease_name(),
            Duration.ofMillis(config.lease_duration_ms()),
            Duration.ofMillis(config.renew_deadline_ms()),
            Duration.ofMillis(config.retry_period_ms()));
    String me = cluster.options().identity();
    System.out.println(
        "cluster: "
            + synced()
            + "; "
            + me
            + " campaigns for the lease "
            + lease.namespace()
            + "/"
            + lease.leaseName());
    election =
        cluster.leaderElection(
            lease,
            new LeaderElection.Listener() {
              @Override
              public void startedLeading() {
                System.out.println("cluster: " + me + " is the leader; scheduling");
                workArrived(); // what waited for a leader is work now
              }

              @Override
              public void stoppedLeading() {
                System.out.println("cluster: " + me + " is not the leader; sessions are idle");
              }
            });
  }

  /** {@code synced 3.1 s after start}, the process's start, for the operator's log. */
  private static String synced() {
    double uptime = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
    return String.format(java.util.Locale.ROOT, "synced %.1f s after start", uptime);
  }

  /** Whether this replica schedules now: synced and, with leader election, the leader. */
  private boolean active() {
    KubeCluster c = cluster;
    if (closed || c == null || !c.isSynced()) {
      return false;
    }
    LeaderElection e = election;
    return !leaderElect || (e != null && e.isLeader());
  }

  /**
   * The cluster's status (informers listed, cache complete, leadership); not ready while closing,
   * and with leader election until the campaign has started (right after the informers synced).
   */
  @Override
  public SourceStatus status() {
    if (closed) {
      return SourceStatus.notReady("the kube cluster is stopping");
    }
    KubeCluster c = cluster;
    if (c == null && connectFailure == null) {
      // At start the loop asks once a period: waiting here for the first connect lets the first
      // session start as soon as the informers have listed (KubeCluster#status waits for that),
      // not up to a period later.
      try {
        firstAttempt.await(CONNECT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      c = cluster;
    }
    if (c == null) {
      String failure = connectFailure;
      return SourceStatus.notReady(
          failure != null ? failure : "connecting to the API server (building the client)");
    }
    SourceStatus status = c.status();
    if (status.isReady() && leaderElect && election == null) {
      return SourceStatus.notReady("starting the leader election");
    }
    return status;
  }

  /**
   * What the connected cluster says arrived, and the start of scheduling (synced, or the lease
   * won), which is work for what waited meanwhile.
   */
  @Override
  public void onWorkArrived(Runnable listener) {
    workListener = listener;
  }

  private void workArrived() {
    Runnable l = workListener;
    if (l != null) {
      l.run();
    }
  }

  /**
   * The cluster now. The loop asks only after {@link #status()} said ready; should leadership be
   * lost in between, the snapshot is empty and {@link #apply} writes nothing.
   */
  @Override
  public ClusterSnapshot snapshot() {
    if (!active()) {
      return new ClusterSnapshot(List.of(), List.of(), List.of(), List.of(), null, Instant.now());
    }
    return cluster.snapshot();
  }

  @Override
  public boolean awaitApplied(Duration timeout) throws InterruptedException {
    KubeCluster c = cluster;
    return c == null || c.awaitDecisionsWritten(timeout);
  }

  @Override
  public ClusterWriter.Accepted accepted() {
    KubeCluster connected = cluster;
    if (connected == null) {
      return new ClusterWriter.Accepted(0, 0);
    }
    KubeCounters c = connected.counters();
    return new ClusterWriter.Accepted(c.bindsSucceeded(), c.evictionsSucceeded());
  }

  @Override
  public void apply(SessionResult result) {
    if (active()) {
      cluster.apply(result);
    }
  }

  @Override
  public boolean bindAtCommit(SessionResult.Bind bind) {
    return active() && cluster.bindAtCommit(bind);
  }

  @Deactivate
  void deactivate() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    firstAttempt.countDown();
    starter.shutdownNow();
    try {
      starter.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LeaderElection e = election;
    if (e != null) {
      e.close();
    }
    PluginBundles p = pluginBundles;
    if (p != null) {
      p.close();
    }
    if (counters != null) {
      counters.unregister();
    }
    if (metrics != null) {
      metrics.unregister();
    }
    if (export != null) {
      export.unregister();
    }
    if (queueLifecycle != null) {
      queueLifecycle.unregister();
    }
    KubeCluster c = cluster;
    if (c != null) {
      c.close();
    }
  }

  /**
   * The innermost cause, which says what was wrong: fabric8 wraps it in "An error has occurred."
   * (e.g. a certificate file that cannot be read: {@code NoSuchFileException: /path/ca.crt}).
   */
  static String rootCause(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName()
        + (root.getMessage() == null ? "" : ": " + root.getMessage().strip().replace('\n', ' '));
  }
}
