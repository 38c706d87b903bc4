package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.conf.Tier;
import dev.caldera.sim.ExpectationChecker;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import dev.caldera.testkit.PrometheusStub;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The project's own scenario corpus, {@code itests/src/test/scenarios/}: every file is run as
 * {@code caldera simulate --check} would and must meet its {@code expect:}. A scenario without
 * {@code policies:} gets the policies Caldera ships ({@code policies/*.policy}), as {@code caldera
 * run} would from its watched folder. Unlike the shared acceptance scenarios nothing is skipped: a
 * scenario naming a plugin that is not built fails.
 *
 * <p>The corpus must use every plugin and every action the build provides, and give every plugin
 * argument and every action argument at least once. The argument keys are read from the sources
 * that parse them (the {@code static final String} constants of each plugin's {@code
 * *Arguments.java}, and of the framework's {@code ActionArguments.java}), so a new argument without
 * a scenario fails this test.
 */
class ProjectScenariosTest {

  static final Path CORPUS = Path.of("src/test/scenarios");
  static final Path PLUGIN_SOURCES = Path.of("../bundles/plugins");
  static final Path ACTION_ARGUMENTS =
      Path.of(
          "../bundles/framework/src/main/java/dev/caldera/framework/internal/actions/"
              + "ActionArguments.java");

  /**
   * In a scenario, the address of a Prometheus server the test starts for it, answering with the
   * samples of the file beside it named {@code <scenario>.prometheus.txt}.
   */
  static final String PROMETHEUS = "${prometheus}";

  private static List<Path> files;
  private static List<Scenario> scenarios;
  private static final List<PrometheusStub> stubs = new ArrayList<>();

  @BeforeAll
  static void load() throws Exception {
    files = ScenarioLoader.expand(List.of(CORPUS));
    assertThat(files).as("scenario files under " + CORPUS.toAbsolutePath()).isNotEmpty();
    Map<String, String> shipped = PolicyScenariosTest.shippedPolicies();
    scenarios = new ArrayList<>();
    for (Path file : files) {
      scenarios.add(PolicyScenariosTest.withShippedPolicies(load(file, stubs), shipped));
    }
  }

  @AfterAll
  static void stopStubs() {
    stubs.forEach(PrometheusStub::close);
  }

  /**
   * Loads a scenario; one that names {@value #PROMETHEUS} gets a {@link PrometheusStub} of its own
   * (added to {@code stubs}, for the caller to close) and is loaded from a copy with the stub's
   * address in its place.
   */
  static Scenario load(Path file, List<PrometheusStub> stubs)
      throws IOException, ScenarioException {
    String text = Files.readString(file);
    if (!text.contains(PROMETHEUS)) {
      return ScenarioLoader.load(file);
    }
    Instant now = ScenarioLoader.load(file).now();
    PrometheusStub stub = new PrometheusStub();
    stubs.add(stub);
    String name = file.getFileName().toString();
    Path samples =
        file.resolveSibling(name.substring(0, name.lastIndexOf('.')) + ".prometheus.txt");
    for (String line : Files.readAllLines(samples)) {
      if (line.isBlank() || line.strip().startsWith("#")) {
        continue;
      }
      String[] f = line.strip().split("\\s+");
      assertThat(f).as("%s: metric node percent seconds-before-now", samples).hasSize(4);
      stub.sample(f[0], f[1], Double.parseDouble(f[2]), now.minusSeconds(Long.parseLong(f[3])));
    }
    Path copy = Files.createTempDirectory("caldera-scenario").resolve(name);
    Files.writeString(copy, text.replace(PROMETHEUS, stub.address().toString()));
    return ScenarioLoader.load(copy);
  }

  @TestFactory
  Stream<DynamicTest> projectScenarios() {
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      Scenario scenario = scenarios.get(i);
      tests.add(
          dynamicTest(
              CORPUS.relativize(file).toString(),
              file.toUri(),
              () -> {
                // A fresh registry per scenario, as `caldera simulate` does.
                ScenarioReport report =
                    new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(scenario);
                assertThat(ExpectationChecker.check(scenario, report))
                    .as("mismatches of %s", file)
                    .isEmpty();
              }));
    }
    return tests.stream();
  }

  /**
   * The scenarios of {@code src/test/refused-scenarios/}: input a user may write that Caldera must
   * refuse with one clear error. Each file's first line is {@code # refused: <text>}, a part of the
   * error message that must come out.
   */
  @TestFactory
  Stream<DynamicTest> refusedScenarios() {
    List<Path> refused = ScenarioLoader.expand(List.of(REFUSED));
    assertThat(refused).isNotEmpty();
    return refused.stream()
        .map(
            file ->
                dynamicTest(
                    REFUSED.relativize(file).toString(),
                    file.toUri(),
                    () -> {
                      String first = Files.readAllLines(file).get(0);
                      assertThat(first).as("first line of " + file).startsWith(REFUSED_MARK);
                      String expected = first.substring(REFUSED_MARK.length()).strip();
                      assertThatThrownBy(
                              () ->
                                  new ScenarioRunner(new ServiceLoaderPluginRegistry())
                                      .run(ScenarioLoader.load(file)))
                          .isInstanceOf(ScenarioException.class)
                          .hasMessageContaining(expected);
                    }));
  }

  static final Path REFUSED = Path.of("src/test/refused-scenarios");
  static final String REFUSED_MARK = "# refused:";

  @Test
  void scenarioNames_areUnique() {
    Map<String, Path> byName = new TreeMap<>();
    for (int i = 0; i < files.size(); i++) {
      Path other = byName.put(scenarios.get(i).name(), files.get(i));
      assertThat(other).as("scenario name %s", scenarios.get(i).name()).isNull();
    }
  }

  @Test
  void corpus_usesEveryPluginAndAction() {
    PluginRegistry registry = new ServiceLoaderPluginRegistry();
    Set<String> plugins = new TreeSet<>();
    Set<String> actions = new TreeSet<>();
    for (Scenario s : scenarios) {
      actions.addAll(s.conf().actions());
      for (Tier tier : s.conf().tiers()) {
        tier.plugins().forEach(p -> plugins.add(p.name()));
      }
    }
    assertThat(plugins).as("plugins the corpus uses").containsAll(registry.pluginNames());
    assertThat(actions).as("actions the corpus uses").containsAll(registry.actionNames());
  }

  @Test
  void corpus_givesEveryPluginArgument() throws IOException {
    SortedMap<String, SortedSet<String>> declared = pluginArgumentKeys();
    assertThat(declared).as("plugins with argument sources").containsKeys("capacity-card", "usage");
    SortedMap<String, SortedSet<String>> missing = new TreeMap<>();
    declared.forEach(
        (plugin, keys) -> {
          Set<String> given = givenArguments(plugin);
          for (String key : keys) {
            if (!given.contains(key)) {
              missing.computeIfAbsent(plugin, p -> new TreeSet<>()).add(key);
            }
          }
        });
    assertThat(missing).as("plugin arguments no corpus scenario gives").isEmpty();
  }

  @Test
  void corpus_givesEveryActionArgument() throws IOException {
    SortedSet<String> keys = stringConstants(ACTION_ARGUMENTS);
    assertThat(keys).contains("enableTopologyAwarePreemption");
    Set<String> given = new TreeSet<>();
    for (Scenario s : scenarios) {
      SchedulerConf conf = s.conf();
      conf.configurations().values().forEach(arguments -> given.addAll(arguments.keySet()));
    }
    assertThat(given).as("action arguments the corpus gives").containsAll(keys);
  }

  /** Every key given to {@code plugin} in the corpus, nested maps' keys as {@code outer.inner}. */
  private static Set<String> givenArguments(String plugin) {
    Set<String> given = new TreeSet<>();
    for (Scenario s : scenarios) {
      for (Tier tier : s.conf().tiers()) {
        for (PluginOption p : tier.plugins()) {
          if (p.name().equals(plugin)) {
            addKeys("", p.arguments(), given);
          }
        }
      }
    }
    return given;
  }

  private static void addKeys(String prefix, Map<?, ?> map, Set<String> out) {
    map.forEach(
        (k, v) -> {
          String key = prefix + k;
          out.add(key);
          if (v instanceof Map<?, ?> nested) {
            addKeys(key + ".", nested, out);
          } else if (v instanceof List<?> list) {
            // Entries of a list of mappings (the policy plugin's {name, audit}) give their keys
            // at the list's own level.
            list.stream()
                .filter(Map.class::isInstance)
                .forEach(entry -> addKeys(prefix, (Map<?, ?>) entry, out));
          }
        });
  }

  /** Plugin (directory) name → the argument keys its {@code *Arguments.java} files declare. */
  static SortedMap<String, SortedSet<String>> pluginArgumentKeys() throws IOException {
    SortedMap<String, SortedSet<String>> keys = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(PLUGIN_SOURCES)) {
      for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
        Path main = dir.resolve("src/main/java");
        if (!Files.isDirectory(main)) {
          continue;
        }
        SortedSet<String> found = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(main)) {
          for (Path source :
              sources.filter(f -> f.getFileName().toString().endsWith("Arguments.java")).toList()) {
            found.addAll(stringConstants(source));
          }
        }
        if (!found.isEmpty()) {
          keys.put(dir.getFileName().toString(), found);
        }
      }
    }
    return keys;
  }

  /**
   * The values of the {@code static final String} constants of a source file, but those named
   * {@code *_PREFIX} (the start of a key, not a key) or {@code NAME}.
   */
  static SortedSet<String> stringConstants(Path source) throws IOException {
    SortedSet<String> values = new TreeSet<>();
    Matcher m = CONSTANT.matcher(Files.readString(source));
    while (m.find()) {
      String name = m.group(1);
      if (!name.endsWith("_PREFIX") && !name.equals("NAME")) {
        values.add(m.group(2));
      }
    }
    return values;
  }

  private static final Pattern CONSTANT =
      Pattern.compile("static final String ([A-Z0-9_]+)\\s*=\\s*\"([^\"]+)\"\\s*;");
}
