package dev.caldera.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavadocTest {

  static final String KEY = "demo.weight";

  private static final String SOURCE =
      """
      package x;

      /**
       * A demo. Nested code: {@code {name: NAME, audit: true}}.
       *
       * <pre>
       * arguments:
       *   demo.weight: 2
       * </pre>
       *
       * @param weight {@value #KEY}, default 1: how much
       *     it counts
       * @param other the {@link #KEY} key's neighbour
       */
      public record DemoArguments(int weight, int other) {}
      """;

  @Test
  void params_keepTheirOrderAndWrappedText() {
    String comment = Javadoc.ofType(SOURCE, "DemoArguments");

    assertThat(Javadoc.params(comment))
        .containsExactly(
            org.assertj.core.api.Assertions.entry(
                "weight", "{@value #KEY}, default 1: how much\n    it counts"),
            org.assertj.core.api.Assertions.entry("other", "the {@link #KEY} key's neighbour"));
  }

  @Test
  void markdown_resolvesConstants_keepsNestedBraces_andTurnsPreIntoAFencedBlock() {
    String description = Javadoc.description(Javadoc.ofType(SOURCE, "DemoArguments"));

    assertThat(Javadoc.markdown(description, JavadocTest.class))
        .isEqualTo(
            "A demo. Nested code: `{name: NAME, audit: true}`.\n\n"
                + "```\narguments:\n  demo.weight: 2\n```");
    assertThat(Javadoc.markdown("{@value #KEY}, and {@link #KEY}", JavadocTest.class))
        .isEqualTo("`demo.weight`, and `demo.weight`");
  }
}
