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
import dev.caldera.testkit.KnownDifferences;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every shared acceptance scenario under {@code ${caldera.shared.dir}/scenarios} (by default {@code
 * ../shared} beside the checkout), run as {@code caldera simulate --check} would, in addition to
 * the project's own corpus ({@link ProjectScenariosTest}). Without the shared directory (a plain
 * clone) the test is skipped with a message saying so.
 *
 * <p>A scenario that needs a plugin that is not built yet is skipped (reported as skipped, and
 * listed on one line). A scenario that {@code KNOWN_DIFFERENCES.md} lists as wrong must still fail:
 * when it starts passing, the list is out of date.
 */
class AcceptanceScenariosTest {

  static final Path KNOWN_DIFFERENCES = Path.of("../KNOWN_DIFFERENCES.md");

  @TestFactory
  Stream<DynamicTest> sharedScenarios() throws IOException {
    String shared = System.getProperty("caldera.shared.dir", "");
    Path root = Path.of(shared.isBlank() ? "../../shared" : shared, "scenarios");
    if (!Files.isDirectory(root)) {
      // One skipped test saying why (an aborted factory would not be reported at all).
      String why =
          "no shared acceptance scenarios at "
              + root.toAbsolutePath().normalize()
              + " (a clone without ../shared): only the project's own corpus runs";
      System.out.println("skipped: " + why);
      return Stream.of(dynamicTest("shared scenarios", () -> Assumptions.abort(why)));
    }
    List<Path> files = ScenarioLoader.expand(List.of(root));
    assertThat(files).as("scenario files under " + root).isNotEmpty();
    Map<String, String> knownWrong = KnownDifferences.wrongScenarios(KNOWN_DIFFERENCES);

    PluginRegistry registry = new ServiceLoaderPluginRegistry();
    List<DynamicTest> tests = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Path file : files) {
      String display = root.relativize(file).toString().replace('\\', '/');
      String whyWrong = knownWrong.get(display);
      if (whyWrong != null) {
        tests.add(dynamicTest(display, file.toUri(), () -> assertStillFails(file, whyWrong)));
        continue;
      }
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

  /**
   * A scenario we believe is wrong fails to load, fails to run or does not meet its {@code
   * expect:}; the message printed says which, next to the reason the list gives.
   */
  private static void assertStillFails(Path file, String whyWrong) {
    String outcome;
    try {
      Scenario scenario = ScenarioLoader.load(file);
      ScenarioReport report = new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(scenario);
      List<String> mismatches = ExpectationChecker.check(scenario, report);
      if (mismatches.isEmpty()) {
        fail(
            file
                + " passes, but KNOWN_DIFFERENCES.md lists it as wrong ("
                + whyWrong
                + "): take it off the list");
      }
      outcome = String.join("; ", mismatches);
    } catch (ScenarioException e) {
      outcome = e.getMessage();
    }
    System.out.println("known difference, fails as expected: " + file + ": " + outcome);
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
