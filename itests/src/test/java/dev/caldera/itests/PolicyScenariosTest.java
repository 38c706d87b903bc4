package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.sim.ExpectationChecker;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The {@code policy} plugin end to end, with plugins that exist: the scenarios under {@code
 * src/test/resources/policy-scenarios}. A scenario without {@code policies:} gets the policies
 * Caldera ships ({@code policies/*.policy}), as {@code caldera run} would from its watched folder.
 */
class PolicyScenariosTest {

  static final Path SHIPPED = Path.of("../policies");

  static Map<String, String> shippedPolicies() throws IOException {
    Map<String, String> policies = new TreeMap<>();
    try (Stream<Path> files = Files.list(SHIPPED)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".policy")).toList()) {
        policies.put(p.getFileName().toString(), Files.readString(p));
      }
    }
    return policies;
  }

  @TestFactory
  Stream<DynamicTest> policyScenarios() throws Exception {
    Path dir = Path.of(PolicyScenariosTest.class.getResource("/policy-scenarios").toURI());
    List<Path> files = ScenarioLoader.expand(List.of(dir));
    assertThat(files).isNotEmpty();
    Map<String, String> shipped = shippedPolicies();
    assertThat(shipped).containsKey("tidal.policy");
    return files.stream()
        .map(
            file ->
                dynamicTest(
                    file.getFileName().toString(),
                    file.toUri(),
                    () -> {
                      Scenario s = withShippedPolicies(ScenarioLoader.load(file), shipped);
                      // A fresh registry per scenario: the policy plugin keeps policies across
                      // sessions, and scenarios must not see each other's.
                      ScenarioReport report =
                          new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(s);
                      assertThat(ExpectationChecker.check(s, report)).isEmpty();
                    }));
  }

  @Test
  void aMissingPolicyHoldsScheduling_withAnErrorNamingIt() throws Exception {
    Path file =
        Path.of(
            PolicyScenariosTest.class
                .getResource("/policy-held/policy-missing-holds-scheduling.yaml")
                .toURI());
    Scenario s = withShippedPolicies(ScenarioLoader.load(file), shippedPolicies());

    assertThatThrownBy(() -> new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(s))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            file
                + ": conf: tiers[1].plugins[2] (policy): policy \"nosuch\" is named in the"
                + " arguments but no valid .policy file declares it");
  }

  static Scenario withShippedPolicies(Scenario s, Map<String, String> shipped) {
    if (s.policies() != null && !s.policies().isEmpty()) {
      return s;
    }
    return new Scenario(
        s.file(),
        s.name(),
        s.description(),
        s.now(),
        s.conf(),
        shipped,
        s.nodeMetrics(),
        s.initialState(),
        s.sessions(),
        s.expect());
  }
}
