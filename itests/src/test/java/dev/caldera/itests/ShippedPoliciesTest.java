package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.runtime.CalderaCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code caldera policy check|test policies/}: the policies Caldera ships are valid and pass. */
class ShippedPoliciesTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int caldera(String... args) {
    return CalderaCommand.commandLine(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8))
        .execute(args);
  }

  @Test
  void policyCheck_acceptsEveryShippedPolicy() {
    int code = caldera("policy", "check", "../policies");

    assertThat(code).as("output:%n%s%s", out, err).isZero();
  }

  @Test
  void policyTest_passesEveryCase() {
    int code = caldera("policy", "test", "../policies");

    String output = out.toString(StandardCharsets.UTF_8);
    System.out.print(output);
    assertThat(output).doesNotContain("FAIL ").doesNotContain("has no cases");
    assertThat(output).containsPattern("(?m)^[1-9][0-9]* passed, 0 failed$");
    assertThat(code).as("output:%n%s%s", output, err).isZero();
  }
}
