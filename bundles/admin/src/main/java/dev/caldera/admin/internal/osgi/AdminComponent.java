package dev.caldera.admin.internal.osgi;

import dev.caldera.admin.internal.AdminServer;
import dev.caldera.admin.internal.DeployRules;
import dev.caldera.admin.internal.Metrics;
import dev.caldera.admin.internal.ProbeServer;
import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/** Runs the admin HTTP server once configured (PID {@value #PID}). */
@Component(
    configurationPid = AdminComponent.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {})
public final class AdminComponent {

  /** The configuration PID. */
  public static final String PID = "dev.caldera.admin";

  /** The configuration. */
  @interface Config {
    /** {@code HOST:PORT} to listen on; port 0 picks a free one; empty for no admin API. */
    String address() default "127.0.0.1:8080";

    /** Enables bundle installs and uninstalls for requests that carry it; empty disables them. */
    String token() default "";

    /** The watched deploy directory; empty for FileInstall's, or none. */
    String deploy() default "";

    /**
     * {@code HOST:PORT} of the probes' own listener ({@code /healthz}, {@code /readyz}); empty for
     * none (they stay on the admin address too).
     */
    String probe_address() default "";

    /**
     * {@code Host} names answered beyond IP addresses, localhost and this host's names, separated
     * by commas; {@code *} for any.
     */
    String allowed_hosts() default "";
  }

  @Reference private PluginRegistry registry;
  @Reference private BundleAudit audit;

  private volatile SchedulerMonitor monitor;

  /** JVM and process metrics, and the latency histograms fed by every session of the loop. */
  private final Metrics metrics = new Metrics(true);

  private final SchedulerMonitor.Listener timings =
      new SchedulerMonitor.Listener() {
        @Override
        public void sessionCompleted(SessionRecord session) {
          metrics.observe(session);
        }
      };

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  void bindMonitor(SchedulerMonitor m) {
    m.addListener(timings);
    monitor = m;
  }

  void unbindMonitor(SchedulerMonitor m) {
    m.removeListener(timings);
    if (monitor == m) {
      monitor = null;
    }
  }

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile QueueInsight insight;

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      service = MetricsSource.class)
  private volatile List<MetricsSource> metricsSources;

  private AdminServer server;
  private ProbeServer probes;

  @Activate
  void activate(BundleContext context, Config config) {
    Path deploy = config.deploy().isBlank() ? audit.deploy() : Path.of(config.deploy());
    OsgiBackend backend =
        new OsgiBackend(
                context, registry, () -> monitor, () -> metricsSources, audit, deploy, metrics)
            .insight(() -> insight);
    if (deploy != null) {
      for (String removed : DeployRules.removeStaleUploads(deploy)) {
        System.out.println(
            "admin: removed " + removed + ", an upload a stopped run left unfinished in " + deploy);
      }
    }
    startProbes(config.probe_address(), backend);
    if (config.address().isBlank()) {
      return;
    }
    InetSocketAddress address;
    try {
      address = parse(config.address());
    } catch (IllegalArgumentException e) {
      System.err.println("warning: admin: " + e.getMessage() + "; the admin API is off");
      return;
    }
    try {
      server =
          new AdminServer(
              address,
              config.token(),
              Arrays.stream(config.allowed_hosts().split(",")).map(String::strip).toList(),
              backend);
    } catch (IllegalArgumentException e) {
      System.err.println("error: admin: " + e.getMessage() + "; the admin API is off");
      return;
    } catch (IOException e) {
      System.err.println(
          "warning: admin: cannot listen on "
              + config.address()
              + " ("
              + e.getMessage()
              + "); the admin API is off");
      return;
    }
    InetSocketAddress bound = server.address();
    System.out.println(
        "admin: http://"
            + bound.getHostString()
            + ":"
            + bound.getPort()
            + "/ (healthz, readyz, metrics, api/plugins, api/conf, api/sessions, api/bundles, api/queues, api/jobs, api/nodes, api/evictions)"
            + (config.token().isBlank() ? "" : "; bundle installs enabled with the admin token"));
  }

  private void startProbes(String probeAddress, OsgiBackend backend) {
    if (probeAddress.isBlank()) {
      return;
    }
    try {
      probes = new ProbeServer(parse(probeAddress), backend);
    } catch (IllegalArgumentException | IOException e) {
      System.err.println(
          "warning: admin: cannot serve the probes on "
              + probeAddress
              + " ("
              + e.getMessage()
              + "); they are on the admin address only");
      return;
    }
    InetSocketAddress bound = probes.address();
    System.out.println(
        "admin: probes on http://"
            + bound.getHostString()
            + ":"
            + bound.getPort()
            + "/ (healthz, readyz)");
  }

  @Deactivate
  void deactivate() {
    if (probes != null) {
      probes.close();
      probes = null;
    }
    if (server != null) {
      server.close();
      server = null;
    }
  }

  static InetSocketAddress parse(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("address: expected HOST:PORT, got " + hostPort);
    }
    try {
      return new InetSocketAddress(
          hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("address: expected HOST:PORT, got " + hostPort, e);
    }
  }
}
