package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalderaCommandTest {

  @TempDir Path dir;

  private final CommandRun cli = new CommandRun();

  private int run(String... args) {
    return cli.run(args);
  }

  private String out() {
    return cli.out();
  }

  private String err() {
    return cli.err();
  }

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void noCommand_isAUsageError_namingEveryCommand() {
    assertThat(run()).isEqualTo(2);
    assertThat(err())
        .contains(
            "Missing command: one of simulate, diff, snapshot, bench, load, run, policy, why,"
                + " queues, queue, nodes (caldera help COMMAND for its options)");
  }

  @Test
  void unknownOption_isAUsageError() {
    assertThat(run("simulate", "--frobnicate", "x.yaml")).isEqualTo(2);
    assertThat(err()).contains("--frobnicate");
  }

  @Test
  void help_exitsZero() {
    assertThat(run("simulate", "--help")).isZero();
    assertThat(out()).contains("--check", "--output");
  }

  @Test
  void simulate_missingFileIsAUsageError() {
    Path missing = dir.resolve("nope.yaml");

    assertThat(run("simulate", missing.toString())).isEqualTo(2);
    assertThat(err()).contains("No such file or directory: " + missing);
  }

  @Test
  void simulate_directoryWithoutScenariosIsAUsageError() {
    assertThat(run("simulate", dir.toString())).isEqualTo(2);
    assertThat(err()).contains("No scenario files");
  }

  @Test
  void simulate_badOutputFormatIsAUsageError() throws IOException {
    Path f = write("a.yaml", "name: a\n");

    assertThat(run("simulate", "--output", "xml", f.toString())).isEqualTo(2);
    assertThat(err()).contains("xml");
  }

  @Test
  void simulate_malformedFilePrintsOneErrorLineWithoutStackTrace() throws IOException {
    Path f = write("bad.yaml", "name: [unclosed\n");

    int code = run("simulate", f.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err().lines()).hasSize(1);
    assertThat(err()).startsWith("error: ").contains("bad.yaml").doesNotContain("\tat ");
  }

  @Test
  void simulate_checkCountsMalformedFilesAsFailed() throws IOException {
    write("a.yaml", "name: a\n");
    write("b.yaml", "not: [valid\n");

    int code = run("simulate", "--check", dir.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err().lines()).hasSize(2).allMatch(l -> l.startsWith("error: "));
    assertThat(out().lines()).last().isEqualTo("0 passed, 2 failed");
  }

  @Test
  void simulate_checkOfOneMalformedFileStillPrintsTheSummary() throws IOException {
    Path f = write("a.yaml", "name: a\n");

    assertThat(run("simulate", "--check", f.toString())).isEqualTo(1);
    assertThat(out().lines()).containsExactly("0 passed, 1 failed");
  }

  @Test
  void simulate_jsonOutputSendsTheSummaryToStandardError() throws IOException {
    write("a.yaml", "name: a\n");
    write("b.yaml", "name: b\n");

    run("simulate", "--output", "json", dir.toString());

    assertThat(out()).isEmpty();
    assertThat(err().lines()).last().isEqualTo("0 passed, 2 failed");
  }

  @Test
  void bench_progressAlways_printsProgressLinesToStderrOnly() {
    int code =
        run(
            "bench",
            "--nodes",
            "100",
            "--pods",
            "3000",
            "--sessions",
            "2",
            "--progress",
            "always",
            "--progress-interval",
            "1");

    assertThat(code).as(err()).isZero();
    assertThat(err().lines())
        .as("stderr")
        .isNotEmpty()
        .allMatch(
            l ->
                l.matches(
                    "bench: session [12]/2: [0-9,]+ pods placed in [0-9.]+ s, [0-9,]+ pods/s so far"));
    assertThat(out()).doesNotContain("pods placed").contains("binds digest");
  }

  @Test
  void bench_progressOffTheTerminal_isNotPrintedByDefault() {
    // Tests do not run on a terminal (System.console() is null): auto prints nothing.
    assertThat(run("bench", "--nodes", "100", "--pods", "3000", "--progress-interval", "1"))
        .isZero();
    assertThat(run("bench", "--nodes", "100", "--pods", "3000", "--progress", "never")).isZero();

    assertThat(err()).isEmpty();
  }

  @Test
  void bench_zeroProgressIntervalIsAUsageError() {
    assertThat(run("bench", "--progress-interval", "0")).isEqualTo(2);
    assertThat(err()).contains("--progress-interval must be 1 or more, got 0");
  }

  @Test
  void bench_podsNotAMultipleOfTasksPerJobIsAUsageError() {
    assertThat(run("bench", "--nodes", "2", "--pods", "15")).isEqualTo(2);
    assertThat(err()).contains("--pods (15) must be a multiple of --tasks-per-job (10)");
  }

  @Test
  void bench_badSizeIsAUsageError() {
    assertThat(run("bench", "--size", "huge")).isEqualTo(2);
    assertThat(err()).contains("huge");
  }

  @Test
  void bench_zeroNodesIsAUsageError() {
    assertThat(run("bench", "--nodes", "0")).isEqualTo(2);
    assertThat(err()).contains("--nodes must be 1 or more");
  }

  @Test
  void bench_negativeWarmupIsAUsageError() {
    assertThat(run("bench", "--warmup", "-1")).isEqualTo(2);
    assertThat(err()).contains("--warmup");
  }

  @Test
  void bench_scenarioWithSyntheticOptionsIsAUsageError() throws IOException {
    Path f = write("a.yaml", "name: a\n");

    assertThat(run("bench", "--scenario", f.toString(), "--nodes", "5")).isEqualTo(2);
    assertThat(err()).contains("--scenario cannot be combined with --nodes");
  }

  @Test
  void bench_missingScenarioIsAUsageError() {
    assertThat(run("bench", "--scenario", dir.resolve("nope.yaml").toString())).isEqualTo(2);
    assertThat(err()).contains("No such file");
  }

  @Test
  void bench_malformedScenarioPrintsOneErrorLine() throws IOException {
    Path f = write("bad.yaml", "name: [unclosed\n");

    assertThat(run("bench", "--scenario", f.toString())).isEqualTo(1);
    assertThat(err().lines()).hasSize(1);
    assertThat(err()).startsWith("error: ");
  }
}
