package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.internal.session.CarriedStates;
import dev.caldera.framework.internal.session.EvictionMemory;
import dev.caldera.framework.internal.session.PodDigests;
import dev.caldera.framework.internal.session.SessionRunner;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.TimelineStep;
import dev.caldera.testkit.PrometheusStub;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A session that takes again what the last one opened and did not change ({@link CarriedStates})
 * decides exactly as one that opens everything anew: every scenario of the project's corpus and of
 * the shared one (when it is beside the checkout) is run on two clusters side by side, one by a
 * scheduler that carries its states from session to session, the other by sessions that each open
 * the whole snapshot, and every session's decisions, statuses, events and counts must be equal.
 */
class CarriedStatesAgreeTest {

  private static final List<PrometheusStub> stubs = new ArrayList<>();

  @AfterAll
  static void stopStubs() {
    stubs.forEach(PrometheusStub::close);
  }

  @TestFactory
  Stream<DynamicTest> projectAndSharedScenarios() throws Exception {
    Map<String, String> shipped = PolicyScenariosTest.shippedPolicies();
    List<Path> files = new ArrayList<>(ScenarioLoader.expand(List.of(ProjectScenariosTest.CORPUS)));
    String sharedDir = System.getProperty("caldera.shared.dir", "");
    Path shared = Path.of(sharedDir.isBlank() ? "../../shared" : sharedDir, "scenarios");
    if (Files.isDirectory(shared)) {
      files.addAll(ScenarioLoader.expand(List.of(shared)));
    }
    assertThat(files).hasSizeGreaterThan(20);
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      tests.add(
          dynamicTest(
              file.toString(),
              () ->
                  agree(
                      PolicyScenariosTest.withShippedPolicies(
                          ProjectScenariosTest.load(file, stubs), shipped))));
    }
    return tests.stream();
  }

  private static void agree(Scenario scenario) throws Exception {
    // A registry for each side: some plugin factories say a warning once per scheduler.
    PluginRegistry registry = new ServiceLoaderPluginRegistry();
    PluginRegistry freshRegistry = new ServiceLoaderPluginRegistry();
    EmbeddedCluster carriedCluster = scenario.cluster();
    EmbeddedCluster freshCluster = scenario.cluster();
    Scheduler carrying = Scheduler.carryingState(registry);
    EvictionMemory freshMemory = new EvictionMemory();
    for (int i = 1; i <= scenario.sessions(); i++) {
      for (TimelineStep step : scenario.timeline()) {
        if (step.session() == i) {
          for (EmbeddedCluster c : List.of(carriedCluster, freshCluster)) {
            step.deleted().forEach(c::delete);
            step.podGroups().forEach(pg -> c.submit(pg, List.of()));
            c.submit(step.pods());
          }
        }
      }
      SessionResult carried =
          carrying.runSession(carriedCluster.snapshot(scenario.now(i)), scenario.conf());
      ClusterSnapshot snapshot = freshCluster.snapshot(scenario.now(i));
      SessionResult fresh =
          new SessionRunner(
                  freshRegistry,
                  scenario.conf(),
                  new PodDigests(),
                  freshMemory,
                  new CarriedStates())
              .run(snapshot);
      assertThat(decided(carried)).as("session %d", i).isEqualTo(decided(fresh));
      carriedCluster.apply(carried);
      freshCluster.apply(fresh);
    }
  }

  /** Everything a session decided and reported, without its timings. */
  private static List<Object> decided(SessionResult r) {
    SessionResult.SessionStats s = r.stats();
    return List.of(
        r.binds(),
        r.evictions(),
        r.pipelined(),
        r.podGroups(),
        r.queueAllocated(),
        r.pods(),
        r.events(),
        r.waiting(),
        r.queueQuotas(),
        r.queueStates(),
        r.nodeCards(),
        List.of(s.tasksConsidered(), s.nodesFiltered(), s.nodesScored(), s.nodesReused()));
  }
}
