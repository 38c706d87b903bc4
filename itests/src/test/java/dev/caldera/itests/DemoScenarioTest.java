package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.runtime.CalderaCommand;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The shipped demo scenario shows what it says and passes its own expectations. */
class DemoScenarioTest {

  @Test
  void demo_usesTheAdvertisedPluginsAndActions() throws Exception {
    Scenario demo = ScenarioLoader.load(Distribution.demo());

    assertThat(demo.conf().actions()).containsExactly("enqueue", "allocate", "backfill", "reclaim");
    assertThat(demo.conf().pluginNames())
        .containsExactlyInAnyOrder(
            "priority",
            "gang",
            "conformance",
            "drf",
            "predicates",
            "proportion",
            "nodeorder",
            "binpack");
    assertThat(demo.sessions()).isBetween(2, 3);
    assertThat(demo.expect()).isNotNull();
  }

  @Test
  void demo_passesItsChecks() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        CalderaCommand.commandLine(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))
            .execute("simulate", "--check", Distribution.demo().toString());

    String stdout = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as("exit code; stdout:%n%s%nstderr:%n%s", stdout, err).isZero();
    assertThat(stdout.lines()).contains("PASS demo").last().isEqualTo("1 passed, 0 failed");
  }
}
