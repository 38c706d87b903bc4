package dev.caldera.admin.internal;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.util.List;
import java.util.Optional;

/** What the admin server and the shell commands read and change; the OSGi side implements it. */
public interface AdminBackend {

  /** The running loop, if any. */
  Optional<SchedulerMonitor> monitor();

  /** The services that add figures to {@code /metrics} (e.g. the kube bundle's), if any. */
  default List<MetricsSource> metricsSources() {
    return List.of();
  }

  /**
   * What {@code /metrics} renders: JVM and process metrics and the session latency histograms (the
   * default has neither: an empty registry, for backends without a loop of their own).
   */
  default Metrics metrics() {
    return new Metrics(false);
  }

  /**
   * The cluster as the running cluster source sees it, as a scenario file (see {@link
   * ClusterExport}); empty when no source exports one (the embedded cluster does not).
   */
  default Optional<String> exportScenario(ClusterExport.Request request) {
    return Optional.empty();
  }

  /** Where pending pod groups stand, when a loop runs. */
  default Optional<QueueInsight> insight() {
    return Optional.empty();
  }

  /**
   * Closes, drains or opens a queue through the running cluster source; empty when no source offers
   * it.
   */
  default Optional<QueueLifecycle.Outcome> queueCommand(
      String queue, QueueLifecycle.Command command) {
    return Optional.empty();
  }

  /** Every plugin loaded, and every plugin the conf names that is missing, by name. */
  List<PluginInfo> plugins();

  /** Every bundle, by id. */
  List<BundleInfo> bundles();

  /**
   * Installs a bundle from the bytes of its jar (through the watched deploy directory when there is
   * one) and waits briefly for it to start.
   *
   * @param fileName the jar's file name, or null to name it after its symbolic name and version
   * @throws AdminException 400 when the jar is not a bundle
   */
  BundleInfo install(String fileName, byte[] jar) throws AdminException;

  /**
   * Uninstalls the bundle with this symbolic name or jar file name, and refreshes packages.
   *
   * @throws AdminException 404 when there is none, 403 when it is not a plugin bundle
   */
  BundleInfo uninstall(String name) throws AdminException;
}
