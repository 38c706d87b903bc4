package dev.caldera.admin.internal.osgi;

import dev.caldera.admin.internal.DeployRules;
import dev.caldera.admin.internal.JarCheck;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRequirement;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * Finds bundles that cannot run and says why, once per version: a jar in the watched deploy
 * directory that is not a bundle (or that FileInstall did not install), and an installed bundle
 * whose requirements no bundle provides. Reports go to the scheduler's event log (or standard
 * output when no loop runs) and are listed by the admin API. Looks every second.
 */
@Component(service = BundleAudit.class, immediate = true)
public final class BundleAudit {

  /** How long a valid jar may wait for FileInstall before it counts as refused. */
  static final long INSTALL_GRACE_MILLIS = 5_000;

  /**
   * How long a bundle may stay installed, but not resolved, before its missing requirements count.
   */
  static final long RESOLVE_GRACE_MILLIS = 2_000;

  /** How long before an unresolved bundle with no missing requirement counts (uses constraints). */
  static final long UNEXPLAINED_GRACE_MILLIS = 10_000;

  private static final String UNEXPLAINED =
      "does not resolve (a uses constraint, or a dependency that does not resolve)";

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile SchedulerMonitor monitor;

  private final Map<Long, String> bundleProblems = new ConcurrentHashMap<>();
  private final Map<String, String> fileProblems = new ConcurrentHashMap<>();
  private final Map<String, String> guarded = new ConcurrentHashMap<>();
  private final Set<Long> everActive = ConcurrentHashMap.newKeySet();
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();
  private final Map<String, Long> installedSince = new ConcurrentHashMap<>();

  /** Deploy jar file name → its version ({@link #versionKey}) at the previous round. */
  private final Map<String, String> lastRound = new ConcurrentHashMap<>();

  private BundleContext context;
  private Path deploy;
  private ScheduledExecutorService executor;

  @Activate
  void activate(BundleContext context) {
    bind(context);
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "caldera-bundle-audit");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(this::auditSafely, 1, 1, TimeUnit.SECONDS);
  }

  /** Binds the audit to the framework and a monitor, without the timer that runs its rounds. */
  void bind(BundleContext context, SchedulerMonitor monitor) {
    this.monitor = monitor;
    bind(context);
  }

  private void bind(BundleContext context) {
    this.context = context;
    String dir = context.getProperty("felix.fileinstall.dir");
    this.deploy = dir == null || dir.isBlank() ? null : Path.of(dir);
  }

  @Deactivate
  void deactivate() {
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  /** The watched deploy directory, or null. */
  Path deploy() {
    return deploy;
  }

  /** Why the bundle does not resolve, if it does not (as far as the audit knows). */
  Optional<String> problem(Bundle b) {
    String p = bundleProblems.get(b.getBundleId());
    if (p == null && b.getState() == Bundle.INSTALLED && !isFragment(b)) {
      return missingRequirements(b);
    }
    return Optional.ofNullable(p);
  }

  /** Deploy-directory file name → why it is not installed. */
  Map<String, String> fileProblems() {
    return Map.copyOf(fileProblems);
  }

  /**
   * The {@link DeployGuard} refused a deploy jar: listed at once, reported once per version when a
   * round finds it unchanged (FileInstall may claim a jar still being written, which it lets go of
   * when the jar is whole).
   */
  void refused(Path jar, String why) {
    String name = jar.getFileName().toString();
    guarded.put(name, why);
    fileProblems.put(name, why);
  }

  /** A refused deploy jar was removed. */
  void forget(Path jar) {
    String name = jar.getFileName().toString();
    guarded.remove(name);
    fileProblems.remove(name);
  }

  private static final String GONE = "@gone";

  private static String versionKey(Path jar) {
    String name = jar.getFileName().toString();
    try {
      return name + "@" + Files.getLastModifiedTime(jar).toMillis() + "+" + Files.size(jar);
    } catch (IOException e) {
      return name + GONE;
    }
  }

  private void auditSafely() {
    try {
      audit();
    } catch (RuntimeException e) {
      // A bundle uninstalled while looking at it: the next round sees a settled state.
    }
  }

  void audit() {
    Set<Long> seen = new HashSet<>();
    Bundle[] bundles = context.getBundles();
    Set<String> installedNow = new HashSet<>();
    long now = System.currentTimeMillis();
    for (Bundle b : bundles) {
      if (b.getState() == Bundle.ACTIVE) {
        everActive.add(b.getBundleId());
      }
      if (b.getState() == Bundle.RESOLVED && !isFragment(b)) {
        auditNotStarted(b, now);
        installedNow.add(b.getBundleId() + "@" + b.getLastModified() + "/start");
        if (bundleProblems.containsKey(b.getBundleId())) {
          seen.add(b.getBundleId());
        }
        continue;
      }
      if (b.getState() != Bundle.INSTALLED || isFragment(b)) {
        continue;
      }
      // A resolve racing an update or a refresh can fail, so a bundle that stays installed is
      // looked at only once it had time to be resolved and started.
      String key = b.getBundleId() + "@" + b.getLastModified();
      installedNow.add(key);
      long since = installedSince.computeIfAbsent(key, k -> now);
      if (now - since < RESOLVE_GRACE_MILLIS) {
        continue;
      }
      Optional<String> missing = missingRequirements(b);
      if (missing.isEmpty() && (now - since < UNEXPLAINED_GRACE_MILLIS || resolves(b))) {
        continue;
      }
      seen.add(b.getBundleId());
      String problem = missing.orElse(UNEXPLAINED);
      bundleProblems.put(b.getBundleId(), problem);
      report(
          key,
          "BundleUnresolved",
          b.getSymbolicName() + " " + b.getVersion() + " (" + b.getLocation() + "): " + problem);
    }
    bundleProblems.keySet().retainAll(seen);
    Set<Long> present = new HashSet<>();
    for (Bundle b : bundles) {
      present.add(b.getBundleId());
    }
    everActive.retainAll(present);
    installedSince.keySet().retainAll(installedNow);
    if (deploy != null) {
      auditDeploy(bundles);
    }
  }

  private void auditDeploy(Bundle[] bundles) {
    List<Path> jars;
    try (Stream<Path> files = Files.list(deploy)) {
      jars = files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
    } catch (IOException e) {
      return;
    }
    Set<String> names = new HashSet<>();
    for (Path jar : jars) {
      String name = jar.getFileName().toString();
      names.add(name);
      String refused = guarded.get(name);
      if (refused != null) {
        fileProblems.put(name, refused);
        String version = versionKey(jar);
        if (version.equals(lastRound.put(name, version))) {
          report(version, "BundleRejected", jar + ": " + refused);
        }
        continue;
      }
      if (installedAt(bundles, name) != null) {
        fileProblems.remove(name);
        continue;
      }
      String version = versionKey(jar);
      if (version.endsWith(GONE) || !version.equals(lastRound.put(name, version))) {
        // New or changed since the last round: a jar still being copied in (empty, or cut short)
        // is judged once it stayed the same for a round, as FileInstall waits before it looks.
        continue;
      }
      Optional<String> problem = JarCheck.problem(jar);
      if (problem.isEmpty()) {
        // A valid jar FileInstall has not installed yet: a problem only once it waited too long.
        long since = firstSeen.computeIfAbsent(version, v -> System.currentTimeMillis());
        if (System.currentTimeMillis() - since < INSTALL_GRACE_MILLIS) {
          continue;
        }
        problem = Optional.of(whyNotInstalled(jar, bundles));
      }
      fileProblems.put(name, problem.get());
      report(version, "BundleRejected", jar + ": " + problem.get());
    }
    fileProblems.keySet().retainAll(names);
    guarded.keySet().retainAll(names);
    lastRound.keySet().retainAll(names);
    firstSeen.keySet().removeIf(v -> !names.contains(v.substring(0, v.indexOf('@'))));
  }

  /** The real reason a valid-looking jar was not installed, found by asking the framework. */
  private String whyNotInstalled(Path jar, Bundle[] bundles) {
    Optional<String> damage = DeployRules.damage(jar);
    if (damage.isPresent()) {
      return damage.get();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(jar);
    } catch (IOException e) {
      return "cannot read it: " + e.getMessage();
    }
    Optional<JarCheck.Identity> id = JarCheck.identity(bytes);
    if (id.isPresent()) {
      for (Bundle b : bundles) {
        if (id.get().symbolicName().equals(b.getSymbolicName())
            && id.get().version().equals(b.getVersion().toString())) {
          return id.get().symbolicName()
              + " "
              + id.get().version()
              + " is already installed from "
              + b.getLocation();
        }
      }
    }
    // FileInstall logs nothing at our log level: install a copy under a location of our own to
    // hear the framework's reason, and take it away again.
    try {
      Bundle probe =
          context.installBundle(
              "caldera-audit:" + jar.getFileName(), new java.io.ByteArrayInputStream(bytes));
      probe.uninstall();
      return "FileInstall did not install it, though the framework accepts it";
    } catch (BundleException | RuntimeException e) {
      return "the framework refuses it: " + e.getMessage();
    }
  }

  /**
   * A deploy bundle that resolved but did not start (its activator threw, or a component's
   * requirement failed): started once more here to get the reason, which FileInstall does not say.
   */
  private void auditNotStarted(Bundle b, long now) {
    if (deploy == null
        || everActive.contains(b.getBundleId())
        || b.getHeaders().get(Constants.BUNDLE_ACTIVATOR) == null
        || !inDeploy(b)) {
      return;
    }
    String key = b.getBundleId() + "@" + b.getLastModified() + "/start";
    long since = installedSince.computeIfAbsent(key, k -> now);
    if (now - since < RESOLVE_GRACE_MILLIS || reported.contains(key)) {
      return;
    }
    try {
      b.start();
    } catch (BundleException | RuntimeException e) {
      Throwable cause = e.getCause();
      String why =
          "does not start: "
              + e.getMessage()
              + (cause == null
                  ? ""
                  : " (" + cause.getClass().getName() + ": " + cause.getMessage() + ")");
      bundleProblems.put(b.getBundleId(), why);
      report(
          key,
          "BundleFailed",
          b.getSymbolicName() + " " + b.getVersion() + " (" + b.getLocation() + "): " + why);
    }
  }

  private boolean inDeploy(Bundle b) {
    try {
      Path file = Path.of(java.net.URI.create(b.getLocation()));
      return deploy
          .toAbsolutePath()
          .normalize()
          .equals(file.toAbsolutePath().normalize().getParent());
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      return false;
    }
  }

  static Bundle installedAt(Bundle[] bundles, String fileName) {
    for (Bundle b : bundles) {
      String location = b.getLocation();
      if (location.endsWith("/" + fileName) || location.endsWith("\\" + fileName)) {
        return b;
      }
    }
    return null;
  }

  /**
   * Whether the framework resolves {@code b} when asked. An installed bundle with nothing missing
   * may only be waiting for its start: behind a slow start in the same start level (a CPU-starved
   * pod starts its bundles one by one for longer than any grace), or at a start level not reached
   * yet. The framework would resolve it at its start anyway.
   */
  private boolean resolves(Bundle b) {
    FrameworkWiring wiring = frameworkWiring();
    return wiring != null && wiring.resolveBundles(List.of(b));
  }

  private FrameworkWiring frameworkWiring() {
    return context.getBundle(Constants.SYSTEM_BUNDLE_ID).adapt(FrameworkWiring.class);
  }

  /** The requirements of an unresolved bundle that nothing provides, if there are any. */
  private Optional<String> missingRequirements(Bundle b) {
    BundleRevision revision = b.adapt(BundleRevision.class);
    FrameworkWiring wiring = frameworkWiring();
    if (revision == null || wiring == null) {
      return Optional.empty();
    }
    List<String> missing = new ArrayList<>();
    for (BundleRequirement r : revision.getDeclaredRequirements(null)) {
      Map<String, String> d = r.getDirectives();
      if (Constants.RESOLUTION_OPTIONAL.equals(d.get(Constants.RESOLUTION_DIRECTIVE))
          || (d.get(Constants.EFFECTIVE_DIRECTIVE) != null
              && !Constants.EFFECTIVE_RESOLVE.equals(d.get(Constants.EFFECTIVE_DIRECTIVE)))) {
        continue;
      }
      Collection<BundleCapability> providers = wiring.findProviders(r);
      if (providers.isEmpty()) {
        missing.add(r.getNamespace() + " " + d.get(Constants.FILTER_DIRECTIVE));
      }
    }
    return missing.isEmpty()
        ? Optional.empty()
        : Optional.of("does not resolve: missing " + String.join(", ", missing));
  }

  private void report(String key, String reason, String message) {
    if (!reported.add(key)) {
      return;
    }
    SchedulerMonitor m = monitor;
    if (m != null) {
      m.report(LoopEvent.warning(reason, message));
    } else {
      System.out.println("Warning " + reason + ": " + message);
    }
  }

  private static boolean isFragment(Bundle b) {
    return b.getHeaders().get(Constants.FRAGMENT_HOST) != null;
  }
}
