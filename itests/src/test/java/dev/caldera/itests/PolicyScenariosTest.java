package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@code policy} plugin end to end where a scenario's {@code expect:} cannot say it (a policy
 * that holds scheduling); its scenarios that run are in the project corpus ({@code
 * src/test/scenarios/policy}, run by {@link ProjectScenariosTest}). A scenario without {@code
 * policies:} gets the policies Caldera ships ({@code policies/*.policy}), as {@code caldera run}
 * would from its watched folder.
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
    return s.withPolicies(shipped);
  }
}
