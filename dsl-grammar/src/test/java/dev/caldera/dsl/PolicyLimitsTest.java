package dev.caldera.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeSession;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Policies past the language's limits (nesting, condition size, path length, file size) are refused
 * with one diagnostic at the place the limit is passed, never with a {@link StackOverflowError};
 * policies at the limits compile and evaluate on a small stack; a reclaim block too large for one
 * generated method runs on the tree evaluator.
 */
class PolicyLimitsTest {

  private static final String CONDITION = "reclaimee.queue.reclaimable";

  /** The reclaim rule of tidal.policy that gets a condition. */
  private static final String RULE = "any may reclaim training";

  /** The line of {@link #RULE} in tidal.policy (1-based). */
  private static int ruleLine() throws IOException {
    List<String> lines = CheckerTest.tidal().lines().toList();
    return lines.indexOf("  " + RULE) + 1;
  }

  /** tidal.policy with {@link #RULE} given the condition {@code condition}. */
  private static String tidalWhen(String condition) throws IOException {
    String tidal = CheckerTest.tidal();
    assertThat(tidal).contains("  " + RULE + "\n");
    return tidal.replace("  " + RULE + "\n", "  " + RULE + " when " + condition + "\n");
  }

  private static String nested(int depth) {
    return "(".repeat(depth) + CONDITION + ")".repeat(depth);
  }

  private static String andChain(int terms) {
    return String.join(" and ", java.util.Collections.nCopies(terms, CONDITION));
  }

  private static Diagnostic onlyDiagnostic(CompileResult r) {
    assertThat(r.ok()).isFalse();
    assertThat(r.diagnostics()).hasSize(1);
    return r.diagnostics().get(0);
  }

  @Test
  void deepParentheses_areRefusedWithP600AtTheFirstLevelPastTheLimit() throws IOException {
    for (int depth : new int[] {2_000, 5_000, 50_000}) {
      CompileResult r = PolicyCompiler.compile("tidal.policy", tidalWhen(nested(depth)));

      Diagnostic d = onlyDiagnostic(r);
      assertThat(d.code().code()).isEqualTo("P600");
      assertThat(d.line()).isEqualTo(ruleLine());
      // the reclaim block's brace is the first level, the 64th parenthesis the 65th
      assertThat(d.column() - 1).isEqualTo(d.sourceLine().indexOf('(') + 63);
      assertThat(d.headline())
          .startsWith("tidal.policy:" + ruleLine() + ":")
          .contains("nested too deeply");
      assertThat(r.policyName()).isEqualTo("tidal");
    }
  }

  @Test
  void aLongRunOfNot_isRefusedWithP600() throws IOException {
    CompileResult r =
        PolicyCompiler.compile("tidal.policy", tidalWhen("not ".repeat(10_000) + CONDITION));

    assertThat(onlyDiagnostic(r).code().code()).isEqualTo("P600");
  }

  @Test
  void aHugeCondition_isRefusedWithP601() throws IOException {
    CompileResult r = PolicyCompiler.compile("tidal.policy", tidalWhen(andChain(3_000)));

    Diagnostic d = onlyDiagnostic(r);
    assertThat(d.code().code()).isEqualTo("P601");
    assertThat(d.line()).isEqualTo(ruleLine());
    assertThat(d.message()).contains("more than 1000 operators");
  }

  @Test
  void aHugePath_isRefusedWithP601() throws IOException {
    CompileResult r =
        PolicyCompiler.compile(
            "tidal.policy", tidalWhen("reclaimee" + ".queue".repeat(20_000) + " == \"x\""));

    assertThat(onlyDiagnostic(r).message()).contains("path too long");
  }

  @Test
  void aHugeFile_isRefusedWithP601BeforeParsing() throws IOException {
    String source = tidalWhen(CONDITION) + "#".repeat(1_000_001) + "\n";

    Diagnostic d = onlyDiagnostic(PolicyCompiler.compile("tidal.policy", source));

    assertThat(d.code().code()).isEqualTo("P601");
    assertThat(d.message()).contains("file too large");
    assertThat(PolicyCompiler.format("tidal.policy", source)).isNull();
  }

  /**
   * A policy of {@code classes} classes (about 9 bytes each: 20,000 make 170 KB, inside every
   * limit), classified by the service-type annotation, with tidal's reclaim rules.
   */
  static String manyClasses(int classes) {
    StringBuilder b = new StringBuilder("policy many\n\nclassify service as inference | training");
    for (int i = 2; i < classes; i++) {
      b.append(" | c").append(i);
    }
    b.append(" {\n  from podgroup.annotations[\"")
        .append(CompilerSemanticsTest.SERVICE_TYPE)
        .append("\"]\n  otherwise c2\n}\n\n");
    b.append("reclaim {\n  training may not reclaim any\n  any may reclaim training\n");
    b.append("  otherwise deny\n}\n");
    return b.toString();
  }

  @Test
  void twentyThousandClasses_compileWithoutAPairTableAndDecide() {
    String source = manyClasses(20_000);
    assertThat(source.length()).isBetween(150_000, 200_000);

    CompileResult r = PolicyCompiler.compile("many.policy", source);

    assertThat(r.render()).isEmpty();
    assertThat(decideForEveryPair(r.policy())).containsExactly("svc-0 may reclaim train-0");
  }

  @Test
  void aStringLiteralPastTheLimit_isRefusedWithP601AtTheLiteral() throws IOException {
    String literal = "\"" + "x".repeat(70_000) + "\"";
    CompileResult r =
        PolicyCompiler.compile("tidal.policy", tidalWhen("reclaimee.queue.name == " + literal));

    Diagnostic d = onlyDiagnostic(r);
    assertThat(d.code().code()).isEqualTo("P601");
    assertThat(d.line()).isEqualTo(ruleLine());
    assertThat(d.column() - 1).isEqualTo(d.sourceLine().indexOf('"'));
    assertThat(d.message()).isEqualTo("string too long: 70002 characters, at most 10000");
  }

  @Test
  void aStringLiteralAtTheLimit_compiles() throws IOException {
    String literal = "\"" + "\u00e9".repeat(9_998) + "\"";
    CompileResult r =
        PolicyCompiler.compile("tidal.policy", tidalWhen("reclaimee.queue.name != " + literal));

    assertThat(r.render()).isEmpty();
    assertThat(decideForEveryPair(r.policy())).containsExactly("svc-0 may reclaim train-0");
  }

  @Test
  void policiesAtTheLimits_compileAndDecideOnA256KiBStack() throws Exception {
    // 998 and, 1 or, 1 ==: 1,000 operators; 63 parentheses inside the block's brace; 31 steps.
    // ".queue" after ".queue" is a type error: the point is that the checker got to say so.
    String pathAtLimit = " or reclaimee" + ".queue".repeat(31) + " == reclaimee.queue";
    String withPath = tidalWhen(nested(63).replace(CONDITION, andChain(999)) + pathAtLimit);
    CompileResult checked = onSmallStack(() -> PolicyCompiler.compile("tidal.policy", withPath));
    assertThat(checked.diagnostics())
        .extracting(d -> d.code().code())
        .isNotEmpty()
        .doesNotContain("P600", "P601");

    String atLimits = tidalWhen(nested(63).replace(CONDITION, andChain(1_000)));
    CompileResult r = onSmallStack(() -> PolicyCompiler.compile("tidal.policy", atLimits));
    assertThat(r.render()).isEmpty();
    List<String> allowed = onSmallStack(() -> decideForEveryPair(r.policy()));
    assertThat(allowed).containsExactly("svc-0 may reclaim train-0");
  }

  private static <T> T onSmallStack(java.util.function.Supplier<T> work) throws Exception {
    CompletableFuture<T> done = new CompletableFuture<>();
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                done.complete(work.get());
              } catch (Throwable e) {
                done.completeExceptionally(e);
              }
            },
            "small-stack",
            256 * 1024);
    t.start();
    return done.get(60, TimeUnit.SECONDS);
  }

  @Test
  void aReclaimBlockTooLargeForOneMethod_runsOnTheTreeEvaluator() throws IOException {
    CompileResult r = PolicyCompiler.compile("tidal.policy", tidalWhen(andChain(1_000)));

    assertThat(r.render()).isEmpty();
    List<String> allowed = decideForEveryPair(r.policy());
    assertThat(allowed).containsExactly("svc-0 may reclaim train-0");
  }

  /**
   * For every pair of a small cluster, the generated (or fallen back) selection and the tree
   * evaluator's explanation agree; returns the allowed pairs.
   */
  private static List<String> decideForEveryPair(Policy policy) {
    FakeSession session = new FakeSession().now(Instant.parse("2026-01-01T01:00:00Z"));
    session.addQueue("q-inf").reclaimable(false).priority(10);
    session.addQueue("q-train").reclaimable(true).priority(1);
    List<TaskInfo> tasks = new ArrayList<>();
    tasks.add(
        session
            .addJob("ns/svc")
            .queue("q-inf")
            .annotation(CompilerSemanticsTest.SERVICE_TYPE, "inference")
            .task("svc-0")
            .requests("cpu", "1"));
    tasks.add(
        session
            .addJob("ns/train")
            .queue("q-train")
            .annotation(CompilerSemanticsTest.SERVICE_TYPE, "training")
            .task("train-0")
            .requests("cpu", "2")
            .status(TaskStatus.RUNNING));
    SessionPolicyContext context = new SessionPolicyContext(session);
    List<String> allowed = new ArrayList<>();
    for (TaskInfo reclaimer : tasks) {
      List<TaskInfo> expected = new ArrayList<>();
      for (TaskInfo candidate : tasks) {
        if (policy.explainReclaim(context, reclaimer, candidate).allowed()) {
          expected.add(candidate);
          allowed.add(reclaimer.name() + " may reclaim " + candidate.name());
        }
      }
      assertThat(policy.reclaimable(context).select(reclaimer, tasks).tasks())
          .containsExactlyElementsOf(expected);
    }
    return allowed;
  }
}
