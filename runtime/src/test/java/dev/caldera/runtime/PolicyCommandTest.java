package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyCommandTest {

  static final String POLICY =
      "policy p\n"
          + "classify service as inference | training {\n"
          + "  from owner.kind { Deployment: inference }\n"
          + "  otherwise training\n"
          + "}\n"
          + "reclaim {\n"
          + "  inference may reclaim training\n"
          + "  otherwise deny\n"
          + "}\n";

  @TempDir Path dir;

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  private int run(String... args) {
    PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    return CalderaCommand.commandLine(out, err).execute(args);
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void check_goodPolicyExitsZero() throws IOException {
    Path p = write("p.policy", POLICY);

    assertThat(run("policy", "check", p.toString())).isZero();
    assertThat(out()).isEqualTo(p + ": ok (policy p)\n");
  }

  @Test
  void check_printsEveryErrorWithCaretAndExitsOne() throws IOException {
    Path p =
        write(
            "p.policy",
            POLICY
                .replace("may reclaim training", "may reclaim trainig")
                .replace("  otherwise deny\n", ""));

    assertThat(run("policy", "check", dir.toString())).isEqualTo(1);
    assertThat(out())
        .isEqualTo(
            p
                + ":7:25: unknown service class 'trainig' (known: inference, training)\n"
                + "  inference may reclaim trainig\n"
                + "                        ^^^^^^^\n"
                + p
                + ":8:1: reclaim block has no 'otherwise allow' or 'otherwise deny' as its last"
                + " rule\n"
                + "}\n"
                + "^\n"
                + "2 errors\n");
  }

  @Test
  void check_duplicateNamesAcrossFilesFailTheLaterFile() throws IOException {
    write("a.policy", POLICY);
    write("b.policy", POLICY);

    assertThat(run("policy", "check", dir.toString())).isEqualTo(1);
    assertThat(out()).contains("b.policy:1:8: duplicate policy name 'p' (also declared at ");
  }

  @Test
  void check_missingFileIsAUsageError() {
    assertThat(run("policy", "check", dir.resolve("none.policy").toString())).isEqualTo(2);
    assertThat(err()).contains("No such file or directory");
  }

  @Test
  void test_runsTheCasesBesideEachPolicyAndCountsFailures() throws IOException {
    write("p.policy", POLICY);
    write(
        "p.cases.yaml",
        "cases:\n"
            + "- name: deployment reclaims job\n"
            + "  reclaimer: {owner: Deployment}\n"
            + "  candidate: {owner: Job}\n"
            + "  expect: allow\n"
            + "  line: 7\n"
            + "- name: wrong expectation\n"
            + "  reclaimer: {owner: Job}\n"
            + "  candidate: {owner: Job}\n"
            + "  expect: allow\n");

    assertThat(run("policy", "test", dir.toString())).isEqualTo(1);
    assertThat(out())
        .contains("PASS p: deployment reclaims job\n")
        .contains("FAIL p: wrong expectation\n    expected allow, got deny\n")
        .contains(":8: otherwise deny")
        .endsWith("1 passed, 1 failed\n");
  }

  @Test
  void test_wrongDecidingLineFails() throws IOException {
    write("p.policy", POLICY);
    Path cases =
        write(
            "p.cases.yaml",
            "cases:\n"
                + "- reclaimer: {owner: Deployment}\n"
                + "  candidate: {owner: Job}\n"
                + "  expect: allow\n"
                + "  line: 8\n");

    assertThat(run("policy", "test", cases.toString())).isEqualTo(1);
    assertThat(out()).contains("FAIL p: case 1\n    expected the rule at line 8 to decide\n");
  }

  @Test
  void test_badCasesFileIsAFailureNamingTheKey() throws IOException {
    write("p.policy", POLICY);
    write("p.cases.yaml", "cases:\n- reclaimer: {ownr: Job}\n  candidate: {}\n  expect: deny\n");

    assertThat(run("policy", "test", dir.toString())).isEqualTo(1);
    assertThat(out()).contains("unknown key ownr").endsWith("0 passed, 1 failed\n");
  }

  @Test
  void test_brokenPolicyCountsAsFailed() throws IOException {
    write("p.policy", "policy p\nreclaim {\n}\n");

    assertThat(run("policy", "test", dir.toString())).isEqualTo(1);
    assertThat(out()).contains("FAIL ").contains("0 passed, 1 failed");
  }

  @Test
  void explain_printsTheDecidingRuleWithFileAndLine() throws IOException {
    Path p = write("p.policy", POLICY);

    int code =
        run(
            "policy",
            "explain",
            p.toString(),
            "--reclaimer",
            "{owner: Deployment}",
            "--candidate",
            "{owner: StatefulSet}");

    assertThat(code).isZero();
    assertThat(out())
        .isEqualTo(
            "allow by "
                + p
                + ":7: inference may reclaim training\n"
                + "  reclaimer service = inference (from owner.kind, line 3)\n"
                + "  reclaimee service = training (otherwise, line 4)\n"
                + "  read:\n"
                + "    reclaimer owner.kind = \"Deployment\"\n"
                + "    reclaimee owner.kind = \"StatefulSet\"\n");
  }

  @Test
  void explain_needsAPairOrAQueueAndTask() throws IOException {
    Path p = write("p.policy", POLICY);

    assertThat(run("policy", "explain", p.toString(), "--reclaimer", "{}")).isEqualTo(2);
    assertThat(err()).contains("--candidate");
  }

  @Test
  void check_aFileThatIsNotUtf8IsThatFilesError_andTheOthersAreChecked() throws IOException {
    Path good = write("a.policy", POLICY);
    Path latin1 = dir.resolve("b.policy");
    Files.write(latin1, new byte[] {'p', 'o', (byte) 0xE9, '\n'});

    assertThat(run("policy", "check", dir.toString())).isEqualTo(1);

    assertThat(out())
        .contains(good + ": ok (policy p)")
        .contains(latin1 + ":1:1: not UTF-8 text (policy files are read as UTF-8)")
        .endsWith("1 error\n");
    assertThat(err()).isEmpty();
  }

  @Test
  void check_aDeviceIsThatFilesError_unread() {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));

    assertThat(run("policy", "check", "/dev/zero")).isEqualTo(1);

    assertThat(out())
        .contains(
            "/dev/zero:1:1: not a regular file (a device or a pipe?): only regular files are read");
    assertThat(err()).isEmpty();
  }

  @Test
  void check_aPolicyOfTwentyThousandClassesIsChecked() throws IOException {
    StringBuilder b = new StringBuilder("policy many\nclassify service as c0");
    for (int i = 1; i < 20_000; i++) {
      b.append(" | c").append(i);
    }
    b.append(" {\n  from owner.kind\n  otherwise c0\n}\n");
    b.append("reclaim {\n  c1 may reclaim any\n  otherwise deny\n}\n");
    Path p = write("many.policy", b.toString());

    run("policy", "check", p.toString());

    assertThat(err()).isEmpty();
    assertThat(out()).doesNotContain("P603", "memory");
  }

  @Test
  void simulate_aDeviceAsScenario_isAClearErrorWithoutAStackTrace() {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));

    assertThat(run("simulate", "/dev/zero")).isNotZero();

    assertThat(err())
        .contains("/dev/zero: cannot read: not a regular file")
        .doesNotContain("\tat ", "Exception");
  }
}
