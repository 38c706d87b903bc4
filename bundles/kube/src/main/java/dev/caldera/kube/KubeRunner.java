package dev.caldera.kube;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The scheduling loop on a real cluster, for use without {@code caldera run}: every period, if the
 * informers have synced and this replica may schedule (is the leader), take a snapshot, run one
 * session and apply its decisions. A failing session is logged and the loop goes on.
 *
 * <p>{@link #main} is a minimal command line: {@code --kubeconfig FILE}, {@code --leader-elect},
 * {@code --scheduler-name NAME} (repeatable), {@code --conf FILE}, {@code --period SECONDS}, {@code
 * --lease-namespace NS}.
 */
public final class KubeRunner implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(KubeRunner.class.getName());

  private final KubeCluster cluster;
  private final Scheduler scheduler;
  private final Supplier<SchedulerConf> conf;
  private final Duration period;
  private final BooleanSupplier mayRun;
  private final AtomicLong sessions = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private volatile String lastError;
  private ScheduledExecutorService loop;

  /**
   * @param conf the conf for the next session (read each time, so it may change between sessions)
   * @param mayRun whether this replica may schedule now (e.g. {@link LeaderElection#isLeader})
   */
  public KubeRunner(
      KubeCluster cluster,
      Scheduler scheduler,
      Supplier<SchedulerConf> conf,
      Duration period,
      BooleanSupplier mayRun) {
    this.cluster = Objects.requireNonNull(cluster);
    this.scheduler = Objects.requireNonNull(scheduler);
    this.conf = Objects.requireNonNull(conf);
    this.period = Objects.requireNonNull(period);
    this.mayRun = Objects.requireNonNull(mayRun);
  }

  /** Runs {@link #runOnce} every period on a daemon thread until {@link #close()}. */
  public synchronized void start() {
    if (loop != null) {
      return;
    }
    loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "caldera-kube-sessions");
              t.setDaemon(true);
              return t;
            });
    loop.scheduleWithFixedDelay(this::runOnce, 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * One turn of the loop.
   *
   * @return whether a session ran and its result was applied
   */
  public boolean runOnce() {
    if (!mayRun.getAsBoolean()) {
      return false;
    }
    SourceStatus status = cluster.status();
    if (!status.isReady()) {
      lastError = status.reason();
      return false;
    }
    try {
      ClusterSnapshot snapshot = cluster.snapshot();
      SessionResult result = scheduler.runSession(snapshot, conf.get());
      sessions.incrementAndGet();
      if (!mayRun.getAsBoolean()) {
        return false; // lost the lease during the session: its decisions are not ours to write
      }
      cluster.apply(result);
      lastError = null;
      return true;
    } catch (ConfException e) {
      failures.incrementAndGet();
      lastError = e.getMessage();
      LOG.log(Level.ERROR, () -> "no session: " + e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      failures.incrementAndGet();
      lastError = e.toString();
      LOG.log(Level.ERROR, "session failed", e);
    }
    return false;
  }

  /** Sessions run so far. */
  public long sessions() {
    return sessions.get();
  }

  /** Sessions that could not run or failed. */
  public long failures() {
    return failures.get();
  }

  /** Why the last session failed, or null if it did not. */
  public String lastError() {
    return lastError;
  }

  @Override
  public synchronized void close() {
    if (loop != null) {
      loop.shutdown();
      try {
        loop.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      loop = null;
    }
  }

  /**
   * Schedules a cluster until the process is stopped. Plugins come from the class path ({@link
   * ServiceLoaderPluginRegistry}).
   */
  public static void main(String[] args) throws Exception {
    Path kubeconfig = null;
    Path confFile = null;
    boolean leaderElect = false;
    Duration period = Duration.ofSeconds(1);
    String leaseNamespace = null;
    List<String> names = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--kubeconfig" -> kubeconfig = Path.of(value(args, ++i, a));
        case "--conf" -> confFile = Path.of(value(args, ++i, a));
        case "--leader-elect" -> leaderElect = true;
        case "--scheduler-name" -> names.add(value(args, ++i, a));
        case "--period" ->
            period = Duration.ofMillis((long) (Double.parseDouble(value(args, ++i, a)) * 1000));
        case "--lease-namespace" -> leaseNamespace = value(args, ++i, a);
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    ServiceLoaderPluginRegistry registry = new ServiceLoaderPluginRegistry();
    SchedulerConf conf =
        confFile == null
            ? SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default conf")
            : SchedulerConf.parse(Files.readString(confFile), confFile.toString());
    List<String> missing = conf.missing(registry);
    if (!missing.isEmpty()) {
      throw new IllegalStateException("not available: " + String.join(", ", missing));
    }
    KubeOptions.Builder options = KubeOptions.builder().kubeconfig(kubeconfig);
    names.forEach(options::schedulerName);
    CountDownLatch stopped = new CountDownLatch(1);
    try (KubeCluster cluster = KubeCluster.connect(options.build())) {
      LeaderElection election =
          leaderElect
              ? cluster.leaderElection(
                  LeaderElection.Options.defaults(
                      leaseNamespace == null ? cluster.namespace() : leaseNamespace))
              : null;
      BooleanSupplier mayRun = election == null ? () -> true : election::isLeader;
      KubeRunner runner =
          new KubeRunner(cluster, Scheduler.carryingState(registry), () -> conf, period, mayRun);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    runner.close();
                    if (election != null) {
                      election.close();
                    }
                    stopped.countDown();
                  }));
      while (!cluster.awaitSync(Duration.ofSeconds(10))) {
        LOG.log(
            Level.INFO,
            () -> "waiting for the informers to sync: " + String.join(", ", cluster.unsynced()));
      }
      runner.start();
      stopped.await();
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
