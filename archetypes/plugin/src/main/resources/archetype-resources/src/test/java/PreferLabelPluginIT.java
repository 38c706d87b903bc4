package ${package};

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.paxexam.CalderaOptions;
import dev.caldera.paxexam.ScenarioReport;
import dev.caldera.paxexam.ScenarioRunner;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import javax.inject.Inject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;

/**
 * Caldera in Felix (Declarative Services, the framework, the embedded cluster, the shipped plugins
 * the scenario's conf names) with this project's bundle: the scheduling loop runs the scenario,
 * and its decisions are the ones the scenario's {@code expect: bind:} lists.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PreferLabelPluginIT {

  private static final Path SCENARIO = Path.of("src/test/scenarios/prefers-the-labelled-node.yaml");

  @Inject BundleContext context;

  @Configuration
  public Option[] config() {
    return CalderaOptions.caldera(
        CalderaOptions.bundleUnderTest(), "priority", "gang", "predicates");
  }

  @Test
  public void theScenarioBindsWhereItExpects_withThisPlugin() throws Exception {
    ScenarioReport report = ScenarioRunner.run(context, SCENARIO);

    Map<String, String> binds = new TreeMap<>();
    for (String bind : report.binds()) {
      String[] podAndNode = bind.split("->");
      binds.put(podAndNode[0], podAndNode[1]);
    }
    assertEquals(expectedBinds(), binds);
    String servedBy = report.sessions().get(0).plugins().get(PreferLabelPlugin.NAME);
    assertTrue(
        "served by " + servedBy, servedBy != null && servedBy.startsWith("${artifactId} "));
  }

  private static Map<String, String> expectedBinds() throws Exception {
    JsonNode expect =
        new ObjectMapper(new YAMLFactory()).readTree(SCENARIO.toFile()).path("expect").path("bind");
    Map<String, String> binds = new TreeMap<>();
    expect.fields().forEachRemaining(e -> binds.put(e.getKey(), e.getValue().asText()));
    return binds;
  }
}
