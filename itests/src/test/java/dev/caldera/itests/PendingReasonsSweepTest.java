package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.Blocker;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import dev.caldera.sim.SessionReport;
import dev.caldera.testkit.PrometheusStub;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19's "done when": every pod group still pending at the end of each of the project's
 * scenarios (the corpus of {@link ProjectScenariosTest} and the shipped demo) has a reason with
 * numbers: a {@link Blocker} with figures (requested, allocated, limit) or per-reason node counts.
 * The reason is the one {@code caldera simulate --explain}, the admin API, {@code caldera why} and
 * the console show (all read the session's waiting line). A pod group whose phase is still Pending
 * (never admitted) must be in the waiting line at all.
 */
class PendingReasonsSweepTest {

  static final Path DEMO = Path.of("../runtime/src/dist/scenarios/demo.yaml");

  private final List<PrometheusStub> stubs = new ArrayList<>();

  @AfterEach
  void stopStubs() {
    stubs.forEach(PrometheusStub::close);
  }

  @Test
  void everyPendingPodGroupOfEveryScenario_hasAReasonWithNumbers() throws Exception {
    List<Path> files = new ArrayList<>(ScenarioLoader.expand(List.of(ProjectScenariosTest.CORPUS)));
    files.add(DEMO);
    Map<String, String> shipped = PolicyScenariosTest.shippedPolicies();
    List<String> withoutNumbers = new ArrayList<>();
    List<String> withoutReason = new ArrayList<>();
    int pending = 0;
    for (Path file : files) {
      Scenario scenario =
          PolicyScenariosTest.withShippedPolicies(ProjectScenariosTest.load(file, stubs), shipped);
      ScenarioReport report = new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(scenario);
      SessionReport last = report.sessions().get(report.sessions().size() - 1);
      Set<String> waiting = new TreeSet<>();
      List<String> explained = last.explain();
      for (int i = 0; i < last.waiting().size(); i++) {
        SessionResult.Waiting w = last.waiting().get(i);
        // What `caldera simulate --explain` prints for it: the message, then its numbers.
        assertThat(explained.get(i))
            .as("simulate --explain of %s in %s", w.podGroup(), file)
            .startsWith(w.podGroup() + ": ")
            .contains(w.blocker().message())
            .contains(w.blocker().details());
        waiting.add(w.podGroup());
        pending++;
        if (!hasNumbers(w.blocker())) {
          withoutNumbers.add(
              file
                  + ": "
                  + w.podGroup()
                  + " ["
                  + w.blocker().stage()
                  + "] "
                  + w.blocker().message());
        }
      }
      report
          .podGroupPhases()
          .forEach(
              (pg, phase) -> {
                if (phase.equals("Pending") && !waiting.contains(pg)) {
                  withoutReason.add(file + ": " + pg + " (" + phase + ")");
                }
              });
    }
    assertThat(pending).as("pending pod groups over the corpus").isGreaterThan(10);
    assertThat(withoutReason).as("pending pod groups missing from the waiting line").isEmpty();
    assertThat(withoutNumbers).as("pending pod groups whose reason has no numbers").isEmpty();
  }

  /** Figures (requested, allocated and limit per resource) or node counts per reason. */
  static boolean hasNumbers(Blocker b) {
    return !b.figures().isEmpty() || !b.nodeCounts().isEmpty();
  }
}
