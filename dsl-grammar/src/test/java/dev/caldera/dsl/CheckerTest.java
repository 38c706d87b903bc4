package dev.caldera.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The checker's rules that need more than one file, or more than a golden file shows. */
class CheckerTest {

  static final Path TIDAL = Path.of("../policies/tidal.policy");

  static String tidal() throws IOException {
    return Files.readString(TIDAL);
  }

  @Test
  void tidal_compilesWithoutDiagnostics() throws IOException {
    CompileResult r = PolicyCompiler.compile("tidal.policy", tidal());

    assertThat(r.diagnostics()).isEmpty();
    assertThat(r.policyName()).isEqualTo("tidal");
    assertThat(r.policy().hasReclaim()).isTrue();
    assertThat(r.policy().hasPreemptive()).isTrue();
    assertThat(r.policy().usesQueueAllocation()).isTrue();
  }

  /**
   * The spec's example is the shipped policy but for the reclaim block: the shipped one decides as
   * the capacity-card design's reference ReclaimableFn (an unknown reclaimer may take training),
   * see KNOWN_DIFFERENCES.md.
   */
  @Test
  void specExample_isTheShippedTidalPolicyButForTheReclaimBlock() throws IOException {
    String shared = System.getProperty("caldera.shared.dir", "");
    Path spec = Path.of(shared, "spec", "policy-dsl.md");
    Assumptions.assumeTrue(Files.isRegularFile(spec), "the shared specs at " + spec);
    String markdown = Files.readString(spec);
    int start = markdown.indexOf("```\n") + 4;
    String example = markdown.substring(start, markdown.indexOf("```", start));

    CompileResult r = PolicyCompiler.compile("policy-dsl.md", example);

    assertThat(r.render()).isEmpty();
    assertThat(PolicyCompiler.format("policy-dsl.md", example))
        .isEqualTo(
            PolicyCompiler.format(
                "tidal.policy", tidal().replace(reclaimBlock(tidal()), reclaimBlock(example))));
    assertThat(reclaimBlock(example)).isNotEqualTo(reclaimBlock(tidal()));
  }

  private static String reclaimBlock(String source) {
    int start = source.indexOf("reclaim {");
    return source.substring(start, source.indexOf("}", start) + 1);
  }

  @Test
  void specExampleTypo_isReportedAsInTheSpec() throws IOException {
    String typo = tidal().replace("any may reclaim training", "any may reclaim trainig");

    CompileResult r = PolicyCompiler.compile("tidal.policy", typo);

    assertThat(r.diagnostics()).hasSize(1);
    Diagnostic d = r.diagnostics().get(0);
    assertThat(d.code()).isEqualTo(DiagnosticCode.UNKNOWN_CLASS);
    assertThat(d.render())
        .isEqualTo(
            "tidal.policy:18:19: unknown service class 'trainig' (known: inference, training,"
                + " unknown)\n"
                + "  any may reclaim trainig\n"
                + "                  ^^^^^^^");
  }

  @Test
  void duplicatePolicyNames_failTheLaterFileOnly() throws IOException {
    CompileResult a = PolicyCompiler.compile("a.policy", tidal());
    CompileResult b = PolicyCompiler.compile("b.policy", "# copy\n" + tidal());

    List<CompileResult> checked = PolicyCompiler.withUniqueNames(List.of(a, b));

    assertThat(checked.get(0).ok()).isTrue();
    assertThat(checked.get(1).ok()).isFalse();
    assertThat(checked.get(1).policy()).isNull();
    Diagnostic d = checked.get(1).diagnostics().get(0);
    assertThat(d.code()).isEqualTo(DiagnosticCode.DUPLICATE_POLICY);
    assertThat(d.render())
        .isEqualTo(
            "b.policy:2:8: duplicate policy name 'tidal' (also declared at a.policy:1:8)\n"
                + "policy tidal\n"
                + "       ^^^^^");
  }

  @Test
  void diagnostics_areSortedByPositionAcrossKinds() {
    CompileResult r =
        PolicyCompiler.compile(
            "x.policy",
            "policy x\n"
                + "reclaim {\n"
                + "  any may reclaim any when reclaimee.nme == \"a\"\n"
                + "  gold may reclaim any\n"
                + "}\n"
                + "preemptive {\n"
                + "  allow when )\n"
                + "}\n");

    assertThat(r.diagnostics())
        .as("a missing otherwise is reported for the intact block only")
        .extracting(d -> d.line() + ":" + d.column() + " " + d.code())
        .containsExactly(
            "3:38 UNKNOWN_ATTRIBUTE", "4:3 UNKNOWN_CLASS", "5:1 MISSING_OTHERWISE", "7:14 SYNTAX");
  }

  @Test
  void render_keepsTabsSoTheCaretLinesUp() {
    Diagnostic d = new Diagnostic(DiagnosticCode.SYNTAX, "f.policy", 1, 3, 2, "oops", "\tab cd");

    assertThat(d.render()).isEqualTo("f.policy:1:3: oops\n\tab cd\n\t ^^");
  }

  @Test
  void unproducedClass_isAcceptedWhenADirectSourceCanProduceAnyClass() {
    CompileResult r =
        PolicyCompiler.compile(
            "d.policy",
            "policy d\n"
                + "classify tier as gold | silver | bronze {\n"
                + "  from queue.labels[\"tier\"]\n"
                + "  otherwise bronze\n"
                + "}\n"
                + "reclaim {\n"
                + "  gold may reclaim bronze\n"
                + "  otherwise deny\n"
                + "}\n");

    assertThat(r.diagnostics()).isEmpty();
  }
}
