package dev.caldera.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ScenarioRunnerTest {

  private static Path resource(String name) throws Exception {
    return Path.of(ScenarioRunnerTest.class.getResource(name).toURI());
  }

  /** A registry with no-op actions of the given names and no plugins. */
  private record StubRegistry(SortedSet<String> actionNames) implements PluginRegistry {
    StubRegistry(String... names) {
      this(new TreeSet<>(List.of(names)));
    }

    @Override
    public Optional<PluginFactory> plugin(String name) {
      return Optional.empty();
    }

    @Override
    public Optional<Action> action(String name) {
      if (!actionNames.contains(name)) {
        return Optional.empty();
      }
      return Optional.of(
          new Action() {
            @Override
            public String name() {
              return name;
            }

            @Override
            public void execute(ActionSession session) {}
          });
    }

    @Override
    public SortedSet<String> pluginNames() {
      return new TreeSet<>();
    }
  }

  @Test
  void run_unknownActionAndPlugin_isAScenarioErrorNamingBoth() throws Exception {
    Path file = resource("/run/unknown-plugin.yaml");
    Scenario s = ScenarioLoader.load(file);
    ScenarioRunner runner = new ScenarioRunner(new StubRegistry("enqueue", "allocate"));

    assertThatThrownBy(() -> runner.run(s))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            file
                + ": conf: actions: unknown action \"teleport\" (available: allocate, enqueue);"
                + " tiers[0]: plugin \"magic\" is not available (available: )");
  }

  @Test
  void run_timelinePodIsKeptAsWritten_andAdmittedAtTheSnapshotAfterItsStep() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/run/timeline-raw.yaml"));
    TimelineStep step = s.timeline().get(0);
    assertThat(step.podGroups()).as("no implicit pod group at load").isEmpty();
    assertThat(step.pods()).singleElement().satisfies(p -> assertThat(p.priority()).isNull());

    ScenarioReport report = new ScenarioRunner(new StubRegistry("enqueue", "allocate")).run(s);

    assertThat(report.podGroupPhases()).containsOnlyKeys("ns1/podgroup-ns1-late");
  }

  @Test
  void run_onePodTwoSessions_bindsThenRunsAndPassesItsCheck() throws Exception {
    Scenario s = ScenarioLoader.load(resource("/run/one-pod.yaml"));
    ServiceLoaderPluginRegistry registry = new ServiceLoaderPluginRegistry();
    assumeThat(registry.actionNames())
        .as("the framework's actions are on the class path")
        .contains("enqueue", "allocate");
    ScenarioRunner runner = new ScenarioRunner(registry);

    ScenarioReport r;
    try {
      r = runner.run(s);
    } catch (UnsupportedOperationException e) {
      assumeThat(e).as("the framework's session is not there yet").isNull();
      return;
    }

    assertThat(r.scenario()).isEqualTo("one-pod");
    assertThat(r.sessions()).extracting(SessionReport::index).containsExactly(1, 2);
    assertThat(r.sessions().get(0).durationMillis()).isPositive();
    assertThat(r.sessions().get(1).binds()).isEmpty();
    assertThat(r.mismatches()).isEmpty();
    assertThat(ExpectationChecker.check(s, r)).isEmpty();
  }
}
