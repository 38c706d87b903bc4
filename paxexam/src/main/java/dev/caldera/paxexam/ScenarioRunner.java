package dev.caldera.paxexam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Runs a scenario file (the format of {@code caldera simulate}) with the real scheduling loop
 * inside the container: the embedded cluster component reads the scenario, the loop runs the
 * scenario's conf for its number of sessions, and the report lists what each session decided. Runs
 * inside the container (call it from a test method).
 */
public final class ScenarioRunner {

  /** The configuration PIDs of the embedded cluster and of the scheduling loop. */
  static final String CLUSTER_PID = "dev.caldera.cluster.embedded";

  static final String SCHEDULER_PID = "dev.caldera.scheduler";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private ScenarioRunner() {}

  /**
   * Runs {@code scenario} and returns what the loop decided once it ran the scenario's {@code
   * sessions} (1 when it does not say).
   *
   * @param context the test's bundle context (injected by Pax Exam)
   * @param scenario the scenario file; a relative path is against the test's working directory
   * @throws AssertionError when the loop does not finish within {@link LoopWatch#TIMEOUT_SECONDS}
   *     seconds, with its last events
   */
  public static ScenarioReport run(BundleContext context, Path scenario) throws Exception {
    Path file = scenario.toAbsolutePath().normalize();
    JsonNode tree = YAML.readTree(file.toFile());
    if (tree == null || !tree.path("conf").isObject()) {
      throw new IllegalArgumentException(file + ": expected a scenario with a conf: object");
    }
    int sessions = tree.path("sessions").asInt(1);
    Path conf = Files.createTempFile("caldera-paxexam", ".conf");
    YAML.writeValue(conf.toFile(), tree.get("conf"));
    conf.toFile().deleteOnExit();

    // The services are used while their trackers are open: closing a tracker releases the
    // service object, and Configuration Admin's is gone once released.
    ServiceTracker<ConfigurationAdmin, ConfigurationAdmin> cm =
        track(context, ConfigurationAdmin.class);
    ServiceTracker<SchedulerMonitor, SchedulerMonitor> loop =
        track(context, SchedulerMonitor.class);
    List<ScenarioReport.Session> ran;
    try {
      ConfigurationAdmin configAdmin = await(cm, ConfigurationAdmin.class);
      configure(configAdmin, CLUSTER_PID, Map.of("scenario", file.toString()));
      configure(
          configAdmin,
          SCHEDULER_PID,
          Map.of(
              "conf",
              conf.toString(),
              "policies",
              "",
              "period.ms",
              20L,
              "sessions",
              (long) sessions,
              "console",
              false));
      SchedulerMonitor monitor = await(loop, SchedulerMonitor.class);
      try (LoopWatch watch = new LoopWatch(monitor)) {
        watch.event("SchedulingFinished");
      }
      ran = monitor.sessions(sessions).stream().map(ScenarioRunner::session).toList();
    } finally {
      loop.close();
      cm.close();
    }
    return new ScenarioReport(file.getFileName().toString(), ran);
  }

  private static ScenarioReport.Session session(SessionRecord r) {
    return new ScenarioReport.Session(
        r.index(),
        r.binds().stream().map(b -> b.pod() + "->" + b.node()).toList(),
        r.evictions(),
        r.plugins());
  }

  private static void configure(ConfigurationAdmin admin, String pid, Map<String, Object> values)
      throws IOException {
    Dictionary<String, Object> d = new Hashtable<>(values);
    admin.getConfiguration(pid, "?").update(d);
  }

  private static <T> ServiceTracker<T, T> track(BundleContext context, Class<T> type) {
    ServiceTracker<T, T> tracker = new ServiceTracker<>(context, type, null);
    tracker.open();
    return tracker;
  }

  private static <T> T await(ServiceTracker<T, T> tracker, Class<T> type)
      throws InterruptedException {
    T service = tracker.waitForService(TimeUnit.SECONDS.toMillis(LoopWatch.TIMEOUT_SECONDS));
    if (service == null) {
      throw new AssertionError(
          "no " + type.getName() + " service within " + LoopWatch.TIMEOUT_SECONDS + " s");
    }
    return service;
  }
}
