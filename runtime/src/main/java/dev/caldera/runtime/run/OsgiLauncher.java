package dev.caldera.runtime.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.framework.wiring.BundleWiring;

/**
 * Runs Caldera inside Apache Felix: installs every bundle of the distribution's {@code bundles/},
 * lets FileInstall install the plugin bundles of {@code deploy/}, configures the embedded cluster,
 * the scheduling loop and the admin server through Configuration Admin, and waits until it is
 * stopped (a signal, {@code --duration}, or the shell's {@code exit}).
 *
 * <p>Start levels order the start and the stop: 1 for the libraries and OSGi services, 2 for the
 * plugins, 3 for the loop, its cluster and the admin server. So the loop starts with the plugins in
 * place and, on stop, finishes its session before any plugin goes.
 */
public final class OsgiLauncher {

  static final String CLUSTER_PID = "dev.caldera.cluster.embedded";
  static final String SCHEDULER_PID = "dev.caldera.scheduler";
  static final String ADMIN_PID = "dev.caldera.admin";
  static final String MONITOR_SERVICE = "dev.caldera.framework.loop.SchedulerMonitor";

  static final int LIBRARY_LEVEL = 1;
  static final int PLUGIN_LEVEL = 2;
  static final int LOOP_LEVEL = 3;

  /** Bundles started last (and stopped first): the loop, the cluster and the admin server. */
  static final Set<String> LOOP_BUNDLES =
      Set.of("caldera-framework", "caldera-sim", "caldera-admin");

  private static final Duration DEPLOY_WAIT = Duration.ofSeconds(20);
  private static final Duration LOOP_WAIT = Duration.ofSeconds(20);
  private static final Duration SCR_LOCK_TIMEOUT = Duration.ofMinutes(10);

  /** The runs of this process whose scheduling loop has started ({@link #stopRunning}). */
  private static final Set<OsgiLauncher> RUNNING = ConcurrentHashMap.newKeySet();

  private final RunOptions options;
  private final PrintStream out;
  private final PrintStream err;
  private final AtomicBoolean stopping = new AtomicBoolean();

  private final CountDownLatch stopped = new CountDownLatch(1);
  private Framework framework;

  public OsgiLauncher(RunOptions options, PrintStream out, PrintStream err) {
    this.options = options;
    this.out = json(options) ? JsonLines.wrap(out, "caldera.run") : out;
    this.err = err;
  }

  // ---- A real cluster (issue 7) ---------------------------------------------------------------
  // With kube settings the kube bundle's cluster replaces the embedded one, and the loop starts
  // only once its informers have synced (and, with leader election, only on the leader), so the
  // launcher does not wait for it.

  private KubeRunOptions kube;

  /** Schedule a real cluster with {@code kube} (null: the embedded cluster). */
  public OsgiLauncher kube(KubeRunOptions kube) {
    this.kube = kube;
    return this;
  }

  // -----------------------------------------------------------------------------------------------

  /**
   * Runs until stopped.
   *
   * @return 0 after an orderly stop, 1 when Caldera could not start
   */
  public int run() throws IOException, InterruptedException {
    PrintStream systemOut = System.out;
    if (json(options)) {
      // The bundles' own lines (admin address, cluster) go to System.out: as JSON too.
      System.setOut(JsonLines.wrap(systemOut, "caldera.run"));
    }
    try {
      return runInFelix();
    } finally {
      System.setOut(systemOut);
    }
  }

  private static boolean json(RunOptions options) {
    return options != null && "json".equalsIgnoreCase(options.logFormat());
  }

  private int runInFelix() throws IOException, InterruptedException {
    long start = System.nanoTime();
    ConsoleLogFormat.install(json(options));
    for (Path stale : FelixStorage.removeStale(FelixStorage.systemTmp())) {
      out.println("caldera: removed " + stale + ", the Felix cache of a run that was killed");
    }
    FelixStorage felix = FelixStorage.create(FelixStorage.systemTmp());
    Path storage = felix.dir();
    try {
      List<Bundle> bundles = startWithBundles(storage, this::configure);
      if (bundles.isEmpty()) {
        err.println("error: no bundles in " + options.bundles());
        return 1;
      }
      BundleContext context = framework.getBundleContext();
      setStartLevel(PLUGIN_LEVEL);
      int plugins = awaitDeployed(context);
      RUNNING.add(this);
      setStartLevel(LOOP_LEVEL);
      if (kube != null) {
        out.println("caldera: cluster: " + kube.describe());
      } else if (!awaitService(context, MONITOR_SERVICE, LOOP_WAIT)) {
        err.println("error: the scheduling loop did not start (see the errors above)");
        return 1;
      }
      out.println(
          String.format(
              Locale.ROOT,
              "caldera: running in Apache Felix %s: %d bundles, %d of them from %s; started in"
                  + " %.1f s",
              framework.getVersion(),
              context.getBundles().length - 1,
              plugins,
              options.deploy(),
              (System.nanoTime() - start) / 1e9));
      Signals.handle(
          signal -> stop(signal + ": stopping after the session in flight"),
          () ->
              out.println(
                  "caldera: SIGHUP ignored (the conf and policies are re-read before every"
                      + " session; SIGTERM stops)"),
          () -> {
            stop("stopping after the session in flight");
            awaitStopped();
          });
      if (options.duration() != null) {
        Thread timer =
            new Thread(
                () -> {
                  try {
                    if (!stopped.await(options.duration().toMillis(), TimeUnit.MILLISECONDS)) {
                      stop(
                          "ran for "
                              + seconds(options.duration())
                              + ": stopping after the session in flight");
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "caldera-duration");
        timer.setDaemon(true);
        timer.start();
      }
      awaitStopped();
      out.println("caldera: stopped");
      if (options.duration() != null) {
        out.print(whereToLook(options));
      }
      return 0;
    } catch (BundleException | ReflectiveOperationException | RuntimeException e) {
      err.println("error: " + e.getMessage());
      return 1;
    } finally {
      RUNNING.remove(this);
      stopFramework();
      felix.close();
    }
  }

  /**
   * What a timed run ends with: where to see, on a run that keeps going, what waited and why, the
   * evictions and the cards.
   */
  static String whereToLook(RunOptions options) {
    StringBuilder out = new StringBuilder();
    out.append(
        "caldera: to look around while it runs, start it"
            + " without --duration (or with a longer one) and ask it:\n");
    String admin =
        options.adminAddress() == null || options.adminAddress().getPort() == 0
            ? null
            : "http://"
                + (options.adminAddress().getAddress() == null
                        || options.adminAddress().getAddress().isAnyLocalAddress()
                    ? "127.0.0.1"
                    : options.adminAddress().getHostString())
                + ":"
                + options.adminAddress().getPort()
                + "/";
    out.append("  caldera queues          the queues, their card quotas and what waits in line\n");
    out.append("  caldera why NS/NAME     why a pod group waits, and the evictions it suffered\n");
    out.append("  caldera nodes           every node and card model: capacity, allocated, free\n");
    if (admin != null) {
      out.append("  console                 ").append(admin).append(" in a browser\n");
    }
    return out.toString();
  }

  /**
   * Stops every run of this process whose scheduling loop has started, after the session in flight,
   * as SIGTERM would; {@code why} is printed. For a caller that runs {@code caldera run} in its own
   * JVM and knows when it is done (the class data training of the build).
   */
  public static void stopRunning(String why) {
    RUNNING.forEach(run -> run.stop(why));
  }

  /**
   * The class loader of every resolved bundle of the runs of this process whose scheduling loop has
   * started, by the file name of the bundle's jar (its location's last part). For the class data
   * training of the build, which links the classes these loaders loaded (a class data archive keeps
   * only linked classes of such loaders).
   */
  public static Map<String, ClassLoader> bundleClassLoaders() {
    Map<String, ClassLoader> loaders = new LinkedHashMap<>();
    for (OsgiLauncher run : RUNNING) {
      Framework framework = run.framework;
      if (framework == null || framework.getBundleContext() == null) {
        continue;
      }
      for (Bundle b : framework.getBundleContext().getBundles()) {
        BundleWiring wiring = b.adapt(BundleWiring.class);
        String location = b.getLocation();
        if (wiring != null && wiring.getClassLoader() != null) {
          loaders.put(location.substring(location.lastIndexOf('/') + 1), wiring.getClassLoader());
        }
      }
    }
    return loaders;
  }

  // ---- A snapshot without a running scheduler (issue 20) ---------------------------------------

  private static final String EXPORT_SERVICE = "dev.caldera.framework.loop.ClusterExport";

  /**
   * Connects to the cluster {@code kube} names with the kube bundle alone (start level 1: no
   * plugin, no scheduling loop, so nothing is ever written), waits until its informers have listed
   * every kind, and returns the cluster as a scenario file (see {@code ClusterExport}).
   *
   * @param conf the conf text the scenario carries, or null
   * @param policies policy file name → text the scenario carries
   * @throws IllegalStateException when the cluster could not be listed within {@code wait}
   */
  public String snapshot(
      KubeRunOptions kube,
      String name,
      String conf,
      Map<String, String> policies,
      boolean dropUnread,
      boolean anonymize,
      boolean json,
      Duration wait)
      throws IOException,
          InterruptedException,
          BundleException,
          InvalidSyntaxException,
          ReflectiveOperationException {
    ConsoleLogFormat.install(false);
    FelixStorage felix = FelixStorage.create(FelixStorage.systemTmp());
    Path storage = felix.dir();
    // The kube bundle prints its progress ("cluster: synced ...") on System.out, which is where
    // the scenario goes (`caldera snapshot --kubeconfig F > cluster.yaml`): to stderr meanwhile.
    java.io.PrintStream stdout = System.out;
    System.setOut(System.err);
    try {
      startWithBundles(
          storage,
          context -> ConfigAdminBridge.update(context, KubeRunOptions.PID, kube.properties()));
      BundleContext context = framework.getBundleContext();
      if (!awaitService(context, EXPORT_SERVICE, wait)) {
        throw new IllegalStateException(
            "the kube bundle did not connect within " + seconds(wait) + " (see the errors above)");
      }
      ServiceReference<?> ref = context.getAllServiceReferences(EXPORT_SERVICE, null)[0];
      Object export = context.getService(ref);
      // The service's types come from the framework bundle's loader, not this class path's.
      Class<?> api = ref.getBundle().loadClass(EXPORT_SERVICE);
      Class<?> requestType = ref.getBundle().loadClass(EXPORT_SERVICE + "$Request");
      Object request =
          requestType
              .getConstructor(
                  String.class,
                  String.class,
                  Map.class,
                  boolean.class,
                  boolean.class,
                  boolean.class)
              .newInstance(name, conf, policies, dropUnread, anonymize, json);
      java.lang.reflect.Method scenario = api.getMethod("scenario", requestType);
      long deadline = System.nanoTime() + wait.toNanos();
      while (true) {
        try {
          return (String) scenario.invoke(export, request);
        } catch (java.lang.reflect.InvocationTargetException e) {
          if (!(e.getCause() instanceof IllegalStateException notListed)) {
            throw e;
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "no snapshot within " + seconds(wait) + ": " + notListed.getMessage());
          }
          Thread.sleep(100);
        }
      }
    } finally {
      stopFramework();
      felix.close();
      System.setOut(stdout);
    }
  }

  /** What the launcher configures through Configuration Admin. */
  @FunctionalInterface
  private interface Configuration {
    void apply(BundleContext context) throws ReflectiveOperationException;
  }

  /**
   * Bundles started before the others, in this order, and configured as soon as they run: the
   * cluster connects and lists in the background while the rest of the bundles start.
   */
  static final List<String> FIRST_BUNDLES =
      List.of("org.apache.felix.configadmin", "org.apache.felix.scr", "caldera-kube");

  /**
   * Starts Felix with its cache in {@code storage}, installs every bundle of {@code bundles/} and
   * starts each but fragments (each runs when the start level reaches its own): first {@link
   * #FIRST_BUNDLES}, then {@code configuration} is applied, then the others.
   *
   * @return the bundles installed
   */
  private List<Bundle> startWithBundles(Path storage, Configuration configuration)
      throws IOException, BundleException, ReflectiveOperationException {
    framework = newFramework(frameworkProperties(storage));
    framework.init();
    framework.start();
    List<Bundle> bundles = installBundles(framework.getBundleContext());
    List<Bundle> order = new ArrayList<>(bundles);
    order.sort(Comparator.comparingInt(b -> startRank(b.getSymbolicName())));
    boolean configured = false;
    for (Bundle b : order) {
      if (!configured && startRank(b.getSymbolicName()) == FIRST_BUNDLES.size()) {
        configuration.apply(framework.getBundleContext());
        configured = true;
      }
      if (b.getHeaders().get(Constants.FRAGMENT_HOST) == null) {
        start(b);
      }
    }
    if (!configured && !bundles.isEmpty()) {
      configuration.apply(framework.getBundleContext());
    }
    return bundles;
  }

  /**
   * The place of the bundle {@code symbolicName} in {@link #FIRST_BUNDLES}, or its size for every
   * other bundle (started in the order they were installed, after those).
   */
  static int startRank(String symbolicName) {
    int i = FIRST_BUNDLES.indexOf(symbolicName);
    return i < 0 ? FIRST_BUNDLES.size() : i;
  }

  private Map<String, String> frameworkProperties(Path storage) {
    Map<String, String> p = new HashMap<>();
    p.put(Constants.FRAMEWORK_STORAGE, storage.resolve("cache").toString());
    p.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
    p.put(Constants.FRAMEWORK_BEGINNING_STARTLEVEL, Integer.toString(LIBRARY_LEVEL));
    p.put("felix.log.level", "1");
    p.put("ds.loglevel", "warn");
    // A component that asks for a service whose component is still activating waits this long for
    // it (SCR's default is 5 s) and then fails for good. When the kube component still connected
    // in its activation, a CPU-starved start (a pod with a 50m limit, an emulated JVM) took longer
    // than 5 s and the scheduling loop never started; any slow activation would do the same. A
    // real deadlock still shows: /readyz says the loop is not running.
    p.put("ds.lock.timeout.milliseconds", Long.toString(SCR_LOCK_TIMEOUT.toMillis()));
    p.put("felix.fileinstall.dir", options.deploy().toAbsolutePath().toString());
    p.put("felix.fileinstall.poll", "250");
    p.put("felix.fileinstall.noInitialDelay", "true");
    p.put("felix.fileinstall.start.level", Integer.toString(PLUGIN_LEVEL));
    p.put("felix.fileinstall.bundles.new.start", "true");
    // FileInstall would print a stack trace per start attempt of a bundle that does not resolve;
    // the admin bundle's audit reports each such bundle once, with the missing requirements.
    p.put("felix.fileinstall.log.level", "0");
    // Jars (and configurations) only: the admin API stages uploads as hidden .part files.
    p.put("felix.fileinstall.filter", ".*\\.(jar|cfg|config)");
    p.put("felix.fileinstall.tmpdir", storage.resolve("fileinstall").toString());
    p.put("gosh.args", options.shell() ? "" : "--nointeractive");
    return p;
  }

  private static Framework newFramework(Map<String, String> properties) {
    FrameworkFactory factory =
        ServiceLoader.load(FrameworkFactory.class, OsgiLauncher.class.getClassLoader())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no OSGi framework on the class path"));
    return factory.newFramework(properties);
  }

  /** Installs every jar of {@code bundles/} (Gogo only with --shell) before starting any. */
  private List<Bundle> installBundles(BundleContext context) throws IOException {
    List<Path> jars;
    try (Stream<Path> files = Files.list(options.bundles())) {
      jars =
          files
              .filter(f -> f.getFileName().toString().endsWith(".jar"))
              .filter(f -> options.shell() || !f.getFileName().toString().contains(".gogo."))
              .filter(OsgiLauncher::isBundle)
              .sorted(Comparator.comparing(Path::toString))
              .toList();
    }
    List<Bundle> installed = new ArrayList<>();
    for (Path jar : jars) {
      try {
        // reference: has Felix read the jar where it is instead of copying it into its cache.
        Bundle b = context.installBundle("reference:" + jar.toUri());
        boolean late = LOOP_BUNDLES.contains(b.getSymbolicName());
        b.adapt(BundleStartLevel.class).setStartLevel(late ? LOOP_LEVEL : LIBRARY_LEVEL);
        installed.add(b);
      } catch (BundleException e) {
        err.println("error: cannot install " + jar + ": " + e.getMessage());
      }
    }
    return installed;
  }

  private void start(Bundle b) {
    try {
      b.start();
    } catch (BundleException e) {
      err.println("error: cannot start " + b.getSymbolicName() + ": " + e.getMessage());
    }
  }

  private void configure(BundleContext context) throws ReflectiveOperationException {
    if (kube != null) {
      Map<String, Object> cluster = kube.properties();
      // PluginBundle objects' jars go where FileInstall hot-swaps the other plugin bundles.
      cluster.put("plugin.bundles.dir", options.deploy().toAbsolutePath().toString());
      ConfigAdminBridge.update(context, KubeRunOptions.PID, cluster);
    } else {
      Map<String, Object> cluster = new LinkedHashMap<>();
      cluster.put("dir", options.cluster().toAbsolutePath().toString());
      cluster.put("workload", options.workload());
      ConfigAdminBridge.update(context, CLUSTER_PID, cluster);
    }

    Map<String, Object> scheduler = new LinkedHashMap<>();
    scheduler.put("conf", options.conf().toAbsolutePath().toString());
    scheduler.put("policies", options.policies().toAbsolutePath().toString());
    scheduler.put("period.ms", options.schedulePeriod().toMillis());
    scheduler.put(
        "session.debounce.ms",
        options.sessionDebounce() == null ? -1L : options.sessionDebounce().toMillis());
    scheduler.put("status.interval.ms", options.statusInterval().toMillis());
    scheduler.put(
        "log", options.logFile() == null ? "" : options.logFile().toAbsolutePath().toString());
    scheduler.put("log.format", options.logFormat());
    scheduler.put("log.max.bytes", options.logMaxBytes());
    scheduler.put("log.keep", options.logKeep());
    scheduler.put("echo.sessions", options.echoSessions());
    ConfigAdminBridge.update(context, SCHEDULER_PID, scheduler);

    if (options.adminAddress() != null || options.probeAddress() != null) {
      Map<String, Object> admin = new LinkedHashMap<>();
      admin.put(
          "address",
          options.adminAddress() == null
              ? ""
              : options.adminAddress().getHostString() + ":" + options.adminAddress().getPort());
      admin.put("token", options.adminToken() == null ? "" : options.adminToken());
      admin.put("deploy", options.deploy().toAbsolutePath().toString());
      admin.put(
          "probe.address",
          options.probeAddress() == null
              ? ""
              : options.probeAddress().getHostString() + ":" + options.probeAddress().getPort());
      admin.put("allowed.hosts", String.join(",", options.allowedHosts()));
      ConfigAdminBridge.update(context, ADMIN_PID, admin);
    }
  }

  private void setStartLevel(int level) throws InterruptedException {
    CountDownLatch reached = new CountDownLatch(1);
    framework
        .adapt(FrameworkStartLevel.class)
        .setStartLevel(
            level,
            event -> {
              if (event.getType() == FrameworkEvent.STARTLEVEL_CHANGED) {
                reached.countDown();
              }
            });
    reached.await(60, TimeUnit.SECONDS);
  }

  /**
   * Waits until FileInstall has installed every jar of {@code deploy/} and started those that
   * resolve.
   *
   * @return how many bundles came from {@code deploy/}
   */
  private int awaitDeployed(BundleContext context) throws IOException, InterruptedException {
    List<String> jars;
    try (Stream<Path> files = Files.list(options.deploy())) {
      jars =
          files
              .filter(f -> f.getFileName().toString().endsWith(".jar"))
              .filter(OsgiLauncher::isBundle)
              .map(f -> f.getFileName().toString())
              .toList();
    }
    long deadline = System.nanoTime() + DEPLOY_WAIT.toNanos();
    Map<Long, Long> installedSince = new HashMap<>();
    while (System.nanoTime() < deadline) {
      int settled = 0;
      for (String jar : jars) {
        Bundle b = bundleAt(context, jar);
        if (b == null) {
          continue;
        }
        // Installed for a while and not started: FileInstall tried, it does not resolve.
        long since = installedSince.computeIfAbsent(b.getBundleId(), id -> System.nanoTime());
        if (b.getState() == Bundle.ACTIVE
            || (b.getState() == Bundle.INSTALLED
                && System.nanoTime() - since > TimeUnit.SECONDS.toNanos(1))) {
          settled++;
        }
      }
      if (settled == jars.size()) {
        break;
      }
      Thread.sleep(25);
    }
    int n = 0;
    for (String jar : jars) {
      if (bundleAt(context, jar) != null) {
        n++;
      }
    }
    return n;
  }

  /** A jar with a bundle symbolic name (FileInstall reports the others). */
  private static boolean isBundle(Path jar) {
    try (JarFile file = new JarFile(jar.toFile())) {
      Manifest m = file.getManifest();
      return m != null && m.getMainAttributes().getValue(Constants.BUNDLE_SYMBOLICNAME) != null;
    } catch (IOException e) {
      return false;
    }
  }

  private static Bundle bundleAt(BundleContext context, String fileName) {
    for (Bundle b : context.getBundles()) {
      String location = b.getLocation();
      if (location.endsWith("/" + fileName) || location.endsWith("\\" + fileName)) {
        return b;
      }
    }
    return null;
  }

  private static boolean awaitService(BundleContext context, String name, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      // All references: the launcher's class path holds its own copy of the class, which
      // getServiceReference would count as incompatible.
      try {
        if (context.getAllServiceReferences(name, null) != null) {
          return true;
        }
      } catch (InvalidSyntaxException e) {
        throw new IllegalStateException(e);
      }
      Thread.sleep(25);
    }
    return false;
  }

  /** Stops the framework on another thread; the loop finishes its session first. */
  void stop(String why) {
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    out.println("caldera: " + why);
    Thread t = new Thread(this::stopFramework, "caldera-stop");
    t.start();
  }

  private void awaitStopped() {
    try {
      while (true) {
        FrameworkEvent e = framework.waitForStop(0);
        if (e.getType() != FrameworkEvent.WAIT_TIMEDOUT) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopped.countDown();
  }

  private void stopFramework() {
    Framework f = framework;
    if (f == null) {
      return;
    }
    try {
      f.stop();
      f.waitForStop(TimeUnit.MINUTES.toMillis(3));
    } catch (BundleException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  /** Deletes {@code dir} and everything in it, as far as it can: for temporary directories. */
  public static void deleteRecursively(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // A temporary directory; the OS cleans it up eventually.
    }
  }
}
