package dev.caldera.dsl.internal.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.dsl.internal.parser.Parsing;
import dev.caldera.dsl.internal.tree.Expr.BinaryOp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Printing a tree back to source: canonical text survives parse → format unchanged. */
class FormatterTest {

  static String format(String source) {
    Reporter reporter = new Reporter("t.policy", source);
    PolicyFile tree = Parsing.parse(source, reporter);
    assertThat(reporter.diagnostics()).as("syntax errors of%n%s", source).isEmpty();
    return Formatter.format(tree);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "policy p\n",
        "policy p\n\nreclaim {\n  otherwise allow\n}\n",
        "policy custom\n"
            + "\n"
            + "classify service as inference | training | unknown {\n"
            + "  from podgroup.annotations[\"volcano.sh/service.type\"]\n"
            + "  otherwise unknown\n"
            + "}\n"
            + "\n"
            + "reclaim {\n"
            + "  inference may reclaim training\n"
            + "  training may reclaim training when reclaimee.queue.priority <"
            + " reclaimer.queue.priority\n"
            + "  otherwise deny\n"
            + "}\n"
            + "\n"
            + "preemptive {\n"
            + "  allow when queue.state == Open\n"
            + "  otherwise deny\n"
            + "}\n",
        "policy expressions\n"
            + "\n"
            + "classify tier as gold | silver {\n"
            + "  from queue.labels[\"tier\"] { gold: gold, \"silver-2\": silver, \"any\": gold }\n"
            + "  from task.namespace {}\n"
            + "  otherwise silver\n"
            + "}\n"
            + "\n"
            + "preemptive {\n"
            + "  deny for gold when not (task.age > 10m or task.request.memory >= 4Gi)\n"
            + "  allow when task.labels[\"a\\\"b\"] exists and task.owner.kind not in [Job, \"X\"]\n"
            + "  allow when queue.allocated - {cpu: 500m, \"nvidia.com/gpu\": 2} <"
            + " queue.deserved + queue.guarantee\n"
            + "  deny when ((task.priority + 1) - 2 in [1, 2.5]) == true\n"
            + "  otherwise allow\n"
            + "}\n"
      })
  void canonicalSource_formatsToItself(String source) {
    assertThat(format(source)).isEqualTo(source);
  }

  @Test
  void tidal_roundTripsToTheSameTree() throws IOException {
    String source = Files.readString(Path.of("../policies/tidal.policy"));

    String once = format(source);

    assertThat(format(once)).isEqualTo(once);
    assertThat(once).doesNotContain("#").contains("  training may not reclaim any\n");
  }

  @Test
  void messyLayout_isNormalised() {
    String messy =
        "policy   m # name\nreclaim{any may\n not reclaim any when(reclaimer.priority>1)\n"
            + "otherwise   deny}";

    assertThat(format(messy))
        .isEqualTo(
            "policy m\n\nreclaim {\n  any may not reclaim any when (reclaimer.priority > 1)\n"
                + "  otherwise deny\n}\n");
  }

  @Test
  void builtTree_getsParenthesesWherePrecedenceNeedsThem() {
    Span s = Span.START;
    Expr a = new Expr.Name("a", s);
    Expr b = new Expr.Name("b", s);
    Expr c = new Expr.Name("c", s);
    Expr or = new Expr.Binary(BinaryOp.OR, a, b, s, s);
    Expr and = new Expr.Binary(BinaryOp.AND, or, c, s, s);
    Expr minus =
        new Expr.Binary(BinaryOp.MINUS, a, new Expr.Binary(BinaryOp.MINUS, b, c, s, s), s, s);

    assertThat(Formatter.expression(and)).isEqualTo("(a or b) and c");
    assertThat(Formatter.expression(new Expr.Not(and, s))).isEqualTo("not ((a or b) and c)");
    assertThat(Formatter.expression(minus)).isEqualTo("a - (b - c)");
  }
}
