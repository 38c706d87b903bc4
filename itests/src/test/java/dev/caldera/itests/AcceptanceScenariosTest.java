package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.Tier;
import dev.caldera.sim.ExpectationChecker;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every shared scenario under {@code ${caldera.shared.dir}/scenarios}, run as {@code caldera
 * simulate --check} would. A scenario that needs a plugin that is not built yet is skipped
 * (reported as skipped, and listed on one line); scenarios with {@code policies:} run like any
 * other.
 */
class AcceptanceScenariosTest {

  @TestFactory
  Stream<DynamicTest> sharedScenarios() {
    String shared = System.getProperty("caldera.shared.dir");
    assertThat(shared).as("system property caldera.shared.dir").isNotBlank();
    Path root = Path.of(shared, "scenarios");
    assertThat(root).as("the shared scenarios directory").isDirectory();
    List<Path> files = ScenarioLoader.expand(List.of(root));
    assertThat(files).as("scenario files under " + root).isNotEmpty();

    PluginRegistry registry = new ServiceLoaderPluginRegistry();
    List<DynamicTest> tests = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Path file : files) {
      String display = root.relativize(file).toString();
      Scenario scenario;
      try {
        scenario = ScenarioLoader.load(file);
      } catch (ScenarioException e) {
        tests.add(dynamicTest(display, () -> fail(e.getMessage(), e)));
        continue;
      }
      String reason = skipReason(scenario, registry);
      if (reason != null) {
        skipped.add(scenario.name());
        tests.add(dynamicTest(display, () -> Assumptions.abort(reason)));
        continue;
      }
      tests.add(
          dynamicTest(
              display,
              file.toUri(),
              () -> {
                // A fresh registry per scenario, as `caldera simulate` does.
                ScenarioReport report =
                    new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(scenario);
                assertThat(ExpectationChecker.check(scenario, report))
                    .as("mismatches of %s", display)
                    .isEmpty();
              }));
    }
    if (!skipped.isEmpty()) {
      System.out.println("skipped (plugin not available): " + String.join(", ", skipped));
    }
    return tests.stream();
  }

  /** Why the scenario cannot run yet, or null if it can. */
  static String skipReason(Scenario scenario, PluginRegistry registry) {
    Set<String> missing = new TreeSet<>();
    for (Tier tier : scenario.conf().tiers()) {
      for (PluginOption p : tier.plugins()) {
        if (!registry.pluginNames().contains(p.name())) {
          missing.add(p.name());
        }
      }
    }
    if (!missing.isEmpty()) {
      return "plugin not available: " + String.join(", ", missing);
    }
    return null;
  }
}
