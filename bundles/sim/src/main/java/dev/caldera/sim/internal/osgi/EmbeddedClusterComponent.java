package dev.caldera.sim.internal.osgi;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.sim.ClusterState;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.internal.live.LiveCluster;
import dev.caldera.sim.internal.live.ManifestDirectory;
import dev.caldera.sim.internal.live.WorkloadGenerator;
import java.nio.file.Path;
import java.time.Instant;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * The embedded cluster as the scheduling loop's source and writer, once configured (PID {@value
 * #PID}): seeded from a directory of manifests (with a churning workload unless {@code workload} is
 * false, on the wall clock) or from a scenario file (its objects, metrics and policies, on its
 * fixed clock, nothing else changing).
 */
@Component(
    configurationPid = EmbeddedClusterComponent.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {ClusterSource.class, ClusterWriter.class, QueueLifecycle.class, ClusterExport.class})
public final class EmbeddedClusterComponent
    implements ClusterSource, ClusterWriter, QueueLifecycle, ClusterExport {

  /** The configuration PID. */
  public static final String PID = "dev.caldera.cluster.embedded";

  /** The configuration; exactly one of {@code dir} and {@code scenario}. */
  @interface Config {
    /** A directory of manifests to seed the cluster from. */
    String dir() default "";

    /** A scenario file to seed the cluster from. */
    String scenario() default "";

    /** With {@code dir}: generate training jobs and inference services over time. */
    boolean workload() default true;

    /** The workload's random seed. */
    long seed() default 1;
  }

  private LiveCluster live;

  @Activate
  void activate(Config config) throws ScenarioException {
    try {
      live = create(config);
    } catch (ScenarioException | RuntimeException e) {
      System.err.println("error: embedded cluster: " + e.getMessage());
      throw e;
    }
  }

  private static LiveCluster create(Config config) throws ScenarioException {
    if (!config.scenario().isBlank()) {
      Scenario s = ScenarioLoader.load(Path.of(config.scenario()));
      EmbeddedCluster cluster = s.cluster();
      Instant now = s.now();
      return new LiveCluster(cluster, null, () -> now);
    }
    if (config.dir().isBlank()) {
      throw new ScenarioException("configure either dir or scenario");
    }
    Path dir = Path.of(config.dir());
    EmbeddedCluster cluster = ManifestDirectory.load(dir);
    // The objects as the first session will see them: the workload fits its jobs to them.
    ClusterState state = cluster.state();
    WorkloadGenerator workload =
        config.workload() ? new WorkloadGenerator(state, config.seed(), Instant.now()) : null;
    System.out.println(
        "cluster: embedded, seeded from "
            + dir
            + ": "
            + state.nodes().size()
            + " nodes, "
            + state.queues().size()
            + " queues, "
            + state.pods().size()
            + " pods"
            + (workload == null ? "" : "; workload: training jobs and inference services"));
    return new LiveCluster(cluster, workload, Instant::now);
  }

  @Override
  public ClusterSnapshot snapshot() {
    return live.snapshot();
  }

  @Override
  public void apply(SessionResult result) {
    live.apply(result);
  }

  @Override
  public Outcome apply(String name, Command command) {
    return live.apply(name, command);
  }

  /** The embedded cluster as it is now, as a scenario file ({@code caldera snapshot}). */
  @Override
  public String scenario(ClusterExport.Request request) {
    return dev.caldera.sim.internal.ScenarioExport.write(live.view(), request);
  }
}
