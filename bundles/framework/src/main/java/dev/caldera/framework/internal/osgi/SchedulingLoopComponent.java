package dev.caldera.framework.internal.osgi;

import dev.caldera.api.host.PolicyChecker;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.internal.loop.LoopFactory;
import dev.caldera.framework.internal.loop.LoopFactory.Running;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * Runs the scheduling loop once configured (PID {@value #PID}) and a cluster source and writer are
 * registered, and publishes its {@link SchedulerMonitor}. Deactivation lets the session in flight
 * finish and apply its decisions.
 */
@Component(
    configurationPid = SchedulingLoopComponent.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {})
public final class SchedulingLoopComponent {

  /** The configuration PID. */
  public static final String PID = "dev.caldera.scheduler";

  /** The session debounce when the configuration gives none (as {@code caldera run}'s default). */
  private static final long DEFAULT_DEBOUNCE_MS = 5;

  /** The configuration; property names are the method names with dots for underscores. */
  @interface Config {
    /** The scheduler conf file, watched. */
    String conf();

    /** The policies directory, watched; empty for none. */
    String policies() default "";

    /** Time from the end of a cycle to the start of the next. */
    long period_ms() default 1000;

    /**
     * How long after work arrived (the cluster source's word) a cycle starts, gathering a burst
     * into one session; negative: every period only.
     */
    long session_debounce_ms() default DEFAULT_DEBOUNCE_MS;

    /** Stop after this many sessions; 0 for no limit. */
    long sessions() default 0;

    /** Print a status line this often; 0 for never. */
    long status_interval_ms() default 0;

    /** The log file; empty for none. */
    String log() default "";

    /** {@code text} or {@code json}. */
    String log_format() default "text";

    /** The log file's size at which it is rotated. */
    long log_max_bytes() default 10L * 1024 * 1024;

    /** How many rotated log files are kept. */
    int log_keep() default 5;

    /** Print events and status lines on standard output. */
    boolean console() default true;

    /** Also print one line per session on standard output. */
    boolean echo_sessions() default false;

    /** Stop the OSGi framework once {@link #sessions()} sessions ran. */
    boolean exit_when_finished() default false;
  }

  @Reference private PluginRegistry registry;
  @Reference private ClusterSource source;
  @Reference private ClusterWriter writer;

  @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
  private volatile PolicyChecker checker;

  private Running running;
  private ServiceRegistration<SchedulerMonitor> registration;
  private ServiceRegistration<QueueInsight> insightRegistration;

  @Activate
  void activate(BundleContext context, Config config) throws IOException {
    Runnable onFinished =
        config.exit_when_finished()
            ? () -> {
              Thread t = new Thread(() -> stopFramework(context), "caldera-finished");
              t.start();
            }
            : null;
    running =
        LoopFactory.start(
            new LoopFactory.Options(
                Path.of(config.conf()),
                config.policies().isBlank() ? null : Path.of(config.policies()),
                Duration.ofMillis(Math.max(1, config.period_ms())),
                config.session_debounce_ms() < 0
                    ? null
                    : Duration.ofMillis(config.session_debounce_ms()),
                config.sessions(),
                Duration.ofMillis(config.status_interval_ms()),
                config.log().isBlank() ? null : Path.of(config.log()),
                config.log_format(),
                config.log_max_bytes(),
                config.log_keep(),
                config.console() ? System.out : null,
                config.echo_sessions()),
            registry,
            source,
            writer,
            () -> checker,
            onFinished);
    Bundle framework = context.getBundle(0L);
    running.shuttingDown(() -> framework != null && framework.getState() == Bundle.STOPPING);
    registration = context.registerService(SchedulerMonitor.class, running.monitor(), null);
    insightRegistration = context.registerService(QueueInsight.class, running.insight(), null);
  }

  @Deactivate
  void deactivate() {
    if (insightRegistration != null) {
      insightRegistration.unregister();
      insightRegistration = null;
    }
    if (registration != null) {
      registration.unregister();
      registration = null;
    }
    if (running != null) {
      running.stop();
      running = null;
    }
  }

  private static void stopFramework(BundleContext context) {
    try {
      context.getBundle(0).stop();
    } catch (BundleException | IllegalStateException e) {
      // Already stopping.
    }
  }
}
