package dev.caldera.kube;

import dev.caldera.kube.internal.PluginBundleSync;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Converges this replica's plugin bundles to the {@code PluginBundle} objects ({@code
 * caldera.dev/v1alpha1}) of one namespace: each object names a jar by URL or Maven coordinates and
 * its SHA-256; every replica fetches it, verifies the digest, and writes it into the deploy
 * directory the OSGi framework watches (where it is hot-swapped in like any plugin bundle). A jar
 * whose digest does not match is refused and never written. Deleting an object removes its jar, so
 * the bundle is uninstalled on every replica. Each replica reports its own outcome under {@code
 * status.replicas.<identity>} of the object and as an event.
 *
 * <p>Jars are written as {@code pluginbundle-<object name>.jar}; files of that prefix that no
 * object names are removed, so the directory holds exactly what the objects say (plus the shipped
 * plugins, which this never touches). Runs on every replica, leader or not, on one thread of its
 * own.
 */
public final class PluginBundles implements AutoCloseable {

  /** The API group, version and plural of the custom resource. */
  public static final String GROUP = "caldera.dev";

  public static final String VERSION = "v1alpha1";
  public static final String PLURAL = "pluginbundles";

  /** The prefix of the jar files this writes into the deploy directory. */
  public static final String FILE_PREFIX = PluginBundleSync.FILE_PREFIX;

  /** What the framework made of a jar written to the deploy directory. */
  @FunctionalInterface
  public interface Probe {
    /**
     * Empty while the framework has not (yet) taken {@code fileName} up as the bundle {@code
     * symbolicName} {@code version}; else whether it is active, and its state or problem.
     */
    Optional<Outcome> check(String fileName, String symbolicName, String version);
  }

  /** A bundle's state once the framework took it up. */
  public record Outcome(boolean active, String detail) {}

  /** Timings; tests shorten them. */
  public record Timings(Duration installTimeout, Duration retryPeriod) {
    public static Timings defaults() {
      return new Timings(Duration.ofSeconds(30), Duration.ofSeconds(30));
    }
  }

  private final PluginBundleSync sync;

  private PluginBundles(PluginBundleSync sync) {
    this.sync = sync;
  }

  /**
   * Starts watching the {@code PluginBundle} objects of {@code namespace} on {@code cluster}'s
   * connection and writing their jars into {@code deployDir}. A missing CRD or a denied list is
   * reported (and retried), never fatal: the shipped plugins go on working.
   */
  public static PluginBundles start(
      KubeCluster cluster, String namespace, Path deployDir, Probe probe, Timings timings) {
    PluginBundleSync sync =
        new PluginBundleSync(
            cluster.client(),
            namespace,
            cluster.options().identity(),
            cluster.options().reportingController(),
            deployDir,
            probe,
            timings);
    sync.start();
    return new PluginBundles(sync);
  }

  /** This replica's state per object name (Installed, Refused, Failed, Invalid, NotActive). */
  public Map<String, String> states() {
    return sync.states();
  }

  /** Waits until no object is waiting to be reconciled; false on timeout. */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    return sync.awaitIdle(timeout);
  }

  @Override
  public void close() {
    sync.close();
  }
}
