package dev.caldera.admin.internal.osgi;

import dev.caldera.admin.internal.AdminBackend;
import dev.caldera.admin.internal.AdminException;
import dev.caldera.admin.internal.BundleInfo;
import dev.caldera.admin.internal.DeployRules;
import dev.caldera.admin.internal.JarCheck;
import dev.caldera.admin.internal.Metrics;
import dev.caldera.admin.internal.PluginInfo;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.PluginUse;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.FrameworkWiring;

/** The admin backend inside OSGi: plugins from the registry, bundles from the framework. */
final class OsgiBackend implements AdminBackend {

  /** Location prefix of bundles installed through the API when no deploy directory is watched. */
  static final String ADMIN_LOCATION = "caldera-admin:";

  private static final long WAIT_MILLIS = 15_000;

  private final BundleContext context;
  private final PluginRegistry registry;
  private final Supplier<SchedulerMonitor> monitor;
  private final Supplier<List<MetricsSource>> metricsSources;
  private final BundleAudit audit;
  private final Path deploy;
  private final Metrics metrics;

  /**
   * @param deploy the watched deploy directory, or null to install bundles directly
   */
  OsgiBackend(
      BundleContext context,
      PluginRegistry registry,
      Supplier<SchedulerMonitor> monitor,
      Supplier<List<MetricsSource>> metricsSources,
      BundleAudit audit,
      Path deploy,
      Metrics metrics) {
    this.context = context;
    this.metrics = metrics;
    this.registry = registry;
    this.monitor = monitor;
    this.metricsSources = metricsSources;
    this.audit = audit;
    this.deploy = deploy;
  }

  private Supplier<QueueInsight> insight = () -> null;

  /** Reads the pending pod groups from {@code insight} (null while no loop runs). */
  OsgiBackend insight(Supplier<QueueInsight> insight) {
    this.insight = insight;
    return this;
  }

  @Override
  public Optional<QueueInsight> insight() {
    return Optional.ofNullable(insight.get());
  }

  @Override
  public Optional<SchedulerMonitor> monitor() {
    return Optional.ofNullable(monitor.get());
  }

  @Override
  public Metrics metrics() {
    return metrics;
  }

  @Override
  public Optional<String> exportScenario(ClusterExport.Request request) {
    ServiceReference<ClusterExport> ref = context.getServiceReference(ClusterExport.class);
    ClusterExport export = ref == null ? null : context.getService(ref);
    if (export == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(export.scenario(request));
    } finally {
      context.ungetService(ref);
    }
  }

  @Override
  public Optional<QueueLifecycle.Outcome> queueCommand(
      String queue, QueueLifecycle.Command command) {
    ServiceReference<QueueLifecycle> ref = context.getServiceReference(QueueLifecycle.class);
    QueueLifecycle lifecycle = ref == null ? null : context.getService(ref);
    if (lifecycle == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(lifecycle.apply(queue, command));
    } finally {
      context.ungetService(ref);
    }
  }

  @Override
  public List<MetricsSource> metricsSources() {
    List<MetricsSource> sources = metricsSources.get();
    return sources == null ? List.of() : List.copyOf(sources);
  }

  @Override
  public List<PluginInfo> plugins() {
    Optional<SchedulerMonitor> m = monitor();
    List<PluginUse> uses = m.map(SchedulerMonitor::pluginUses).orElse(List.of());
    List<String> inConf = m.map(x -> x.conf().plugins()).orElse(List.of());
    List<PluginInfo> out = new ArrayList<>();
    for (String name : registry.pluginNames()) {
      Optional<PluginFactory> f = registry.plugin(name);
      if (f.isEmpty()) {
        continue;
      }
      Bundle b = FrameworkUtil.getBundle(f.get().getClass());
      String origin = registry.origin(name);
      long served =
          uses.stream()
              .filter(u -> u.plugin().equals(name) && u.origin().equals(origin))
              .mapToLong(PluginUse::sessions)
              .sum();
      out.add(
          new PluginInfo(
              name,
              b == null ? f.get().getClass().getName() : b.getSymbolicName(),
              b == null ? null : b.getVersion().toString(),
              b == null ? "ACTIVE" : state(b.getState()),
              served,
              inConf.contains(name)));
    }
    for (String name : inConf) {
      if (registry.plugin(name).isEmpty()) {
        out.add(new PluginInfo(name, null, null, "MISSING", 0, true));
      }
    }
    out.sort(Comparator.comparing(PluginInfo::name));
    return out;
  }

  @Override
  public List<BundleInfo> bundles() {
    List<BundleInfo> out = new ArrayList<>();
    for (Bundle b : context.getBundles()) {
      out.add(info(b));
    }
    audit
        .fileProblems()
        .forEach(
            (file, problem) ->
                out.add(
                    new BundleInfo(
                        -1,
                        null,
                        null,
                        "REFUSED",
                        deploy.resolve(file).toUri().toString(),
                        problem)));
    return out;
  }

  private BundleInfo info(Bundle b) {
    return new BundleInfo(
        b.getBundleId(),
        b.getSymbolicName(),
        b.getVersion().toString(),
        state(b.getState()),
        b.getLocation(),
        audit.problem(b).orElse(null));
  }

  @Override
  public BundleInfo install(String fileName, byte[] jar) throws AdminException {
    Optional<String> problem = JarCheck.problem(jar);
    if (problem.isPresent()) {
      throw new AdminException(400, "not installed: " + problem.get());
    }
    JarCheck.Identity id = JarCheck.identity(jar).orElseThrow();
    String name =
        fileName == null || fileName.isBlank()
            ? id.symbolicName() + "-" + id.version() + ".jar"
            : fileName;
    if (!name.endsWith(".jar")) {
      name = name + ".jar";
    }
    Optional<String> badName = DeployRules.badFileName(name);
    if (badName.isPresent()) {
      throw new AdminException(400, "name: " + badName.get());
    }
    List<DeployRules.Installed> installed = new ArrayList<>();
    for (Bundle b : context.getBundles()) {
      if (b.getSymbolicName() != null) {
        installed.add(
            new DeployRules.Installed(b.getSymbolicName(), b.getVersion(), b.getLocation()));
      }
    }
    Optional<String> refusal = DeployRules.refusal(name, jar, installed, ApiExports.of(context));
    if (refusal.isPresent()) {
      throw new AdminException(400, "not installed: " + refusal.get());
    }
    if (deploy == null) {
      return installDirectly(name, jar);
    }
    Path target = deploy.resolve(name);
    Path part;
    try {
      // Staged outside the watched directory's filter (a hidden .part file), moved in whole.
      part = Files.createTempFile(deploy, DeployRules.UPLOAD_PREFIX, DeployRules.UPLOAD_SUFFIX);
    } catch (IOException e) {
      throw new AdminException(500, "cannot write in " + deploy + ": " + e.getMessage());
    }
    try {
      Files.write(part, jar);
      Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      deleteQuietly(part);
      throw new AdminException(500, "cannot write " + target + ": " + e.getMessage());
    }
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    Bundle b = null;
    while (System.currentTimeMillis() < deadline) {
      b = BundleAudit.installedAt(context.getBundles(), name);
      if (b != null
          && b.getVersion().toString().equals(id.version())
          && (b.getState() == Bundle.ACTIVE || audit.problem(b).isPresent())) {
        break;
      }
      String refused = audit.fileProblems().get(name);
      if (refused != null) {
        // A refused upload does not stay in deploy/ (where it would be refused at every start).
        deleteQuietly(target);
        throw new AdminException(400, "not installed: " + refused);
      }
      pause();
    }
    if (b == null) {
      throw new AdminException(
          504, target + " was written but not installed within " + WAIT_MILLIS / 1000 + " s");
    }
    return info(b);
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // Reported by the audit if it stays.
    }
  }

  private BundleInfo installDirectly(String name, byte[] jar) throws AdminException {
    Bundle b;
    try {
      b = context.installBundle(ADMIN_LOCATION + name, new ByteArrayInputStream(jar));
    } catch (BundleException e) {
      throw new AdminException(400, "not installed: " + e.getMessage());
    }
    try {
      b.start();
    } catch (BundleException e) {
      // Reported by the audit, and in the answer's problem.
    }
    return info(b);
  }

  @Override
  public BundleInfo uninstall(String name) throws AdminException {
    Bundle target = null;
    for (Bundle b : context.getBundles()) {
      String location = b.getLocation();
      if (name.equals(b.getSymbolicName())
          || location.endsWith("/" + name)
          || location.equals(ADMIN_LOCATION + name)
          || name.equals(Long.toString(b.getBundleId()))) {
        target = b;
      }
    }
    if (target == null) {
      throw new AdminException(404, "no bundle named " + name);
    }
    BundleInfo before = info(target);
    Path file = fileInDeploy(target);
    if (file == null
        && !target.getLocation().startsWith(ADMIN_LOCATION)
        && !providesPlugins(target)) {
      throw new AdminException(
          403, name + " is not a plugin bundle (only plugin bundles can be uninstalled here)");
    }
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new AdminException(500, "cannot delete " + file + ": " + e.getMessage());
      }
      long deadline = System.currentTimeMillis() + WAIT_MILLIS;
      while (target.getState() != Bundle.UNINSTALLED && System.currentTimeMillis() < deadline) {
        pause();
      }
    } else {
      try {
        target.uninstall();
      } catch (BundleException e) {
        throw new AdminException(500, "cannot uninstall " + name + ": " + e.getMessage());
      }
      refresh(target);
    }
    return new BundleInfo(
        before.id(),
        before.symbolicName(),
        before.version(),
        state(target.getState()),
        before.location(),
        null);
  }

  private void refresh(Bundle b) {
    CountDownLatch done = new CountDownLatch(1);
    context
        .getBundle(Constants.SYSTEM_BUNDLE_ID)
        .adapt(FrameworkWiring.class)
        .refreshBundles(
            List.of(b),
            e -> {
              if (e.getType() == FrameworkEvent.PACKAGES_REFRESHED) {
                done.countDown();
              }
            });
    try {
      done.await(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The jar in the deploy directory the bundle was installed from, or null. */
  private Path fileInDeploy(Bundle b) {
    if (deploy == null) {
      return null;
    }
    String location = b.getLocation();
    int slash = Math.max(location.lastIndexOf('/'), location.lastIndexOf('\\'));
    String fileName = location.substring(slash + 1);
    Path candidate = deploy.resolve(fileName);
    String dir = deploy.toAbsolutePath().normalize().toString().replace('\\', '/');
    return location.replace('\\', '/').contains(dir + "/") && Files.exists(candidate)
        ? candidate
        : null;
  }

  private static boolean providesPlugins(Bundle b) {
    ServiceReference<?>[] refs = b.getRegisteredServices();
    if (refs == null) {
      return false;
    }
    for (ServiceReference<?> r : refs) {
      Object classes = r.getProperty(Constants.OBJECTCLASS);
      if (classes instanceof String[] names
          && Set.of(names).contains(PluginFactory.class.getName())) {
        return true;
      }
    }
    return false;
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static String state(int state) {
    return switch (state) {
      case Bundle.INSTALLED -> "INSTALLED";
      case Bundle.RESOLVED -> "RESOLVED";
      case Bundle.STARTING -> "STARTING";
      case Bundle.STOPPING -> "STOPPING";
      case Bundle.ACTIVE -> "ACTIVE";
      default -> "UNINSTALLED";
    };
  }
}
