package dev.caldera.plugins.capacitycard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CardAnnotationsTest {

  @Test
  void quota_readsCardsAndCountsInOrder() {
    CardAnnotations.Counts q =
        CardAnnotations.quota("{\"NVIDIA-H200\": 3, \"NVIDIA-H200/mig-1g.18gb-mixed\":2}");

    assertThat(q.problems()).isEmpty();
    assertThat(q.counts())
        .containsExactly(
            Map.entry("NVIDIA-H200", 3L), Map.entry("NVIDIA-H200/mig-1g.18gb-mixed", 2L));
  }

  @Test
  void quota_blankOrAbsentIsEmpty() {
    assertThat(CardAnnotations.quota(null).counts()).isEmpty();
    assertThat(CardAnnotations.quota("  ").problems()).isEmpty();
    assertThat(CardAnnotations.quota("{}").counts()).isEmpty();
  }

  @Test
  void quota_badJsonNamesTheAnnotationAndTheProblem() {
    CardAnnotations.Counts q = CardAnnotations.quota("{\"NVIDIA-H200\": 3");

    assertThat(q.counts()).isEmpty();
    assertThat(q.problems())
        .containsExactly("volcano.sh/card.quota: unexpected end of text, expected ',' or '}'");
  }

  @Test
  void quota_negativeCountIsAProblem() {
    CardAnnotations.Counts q = CardAnnotations.quota("{\"NVIDIA-H200\": -1}");

    assertThat(q.counts()).isEmpty();
    assertThat(q.problems())
        .containsExactly(
            "volcano.sh/card.quota: count of \"NVIDIA-H200\" is -1, expected 0 or more");
  }

  @Test
  void quota_otherMalformedValues() {
    assertThat(CardAnnotations.quota("{\"A\": 1.5}").problems())
        .containsExactly("volcano.sh/card.quota: count of \"A\" is 1.5, expected a whole number");
    assertThat(CardAnnotations.quota("{\"A\": \"2\"}").problems())
        .containsExactly("volcano.sh/card.quota: count of \"A\" is not a number");
    assertThat(CardAnnotations.quota("{\"A\": 1, \"A\": 2}").problems())
        .containsExactly("volcano.sh/card.quota: card \"A\" is given twice");
    assertThat(CardAnnotations.quota("[1]").problems())
        .containsExactly(
            "volcano.sh/card.quota: unexpected '[' at offset 0, expected a JSON object such as"
                + " {\"NVIDIA-H200\": 2}");
    assertThat(CardAnnotations.quota("{\"A\": 1} x").problems())
        .containsExactly("volcano.sh/card.quota: unexpected text after the object at offset 9");
    assertThat(CardAnnotations.quota("{\"\": 1}").problems())
        .containsExactly("volcano.sh/card.quota: empty card name at offset 1");
  }

  @Test
  void quota_acceptsEscapesAndExponents() {
    CardAnnotations.Counts q = CardAnnotations.quota("{\"A\\u002dB\": 1e1}");

    assertThat(q.problems()).isEmpty();
    assertThat(q.counts()).containsExactly(Map.entry("A-B", 10L));
  }

  @Test
  void quota_multiModelKeyIsIgnoredWithAProblemTheRestKept() {
    CardAnnotations.Counts q = CardAnnotations.quota("{\"A|B\": 2, \"C\": 1}");

    assertThat(q.counts()).containsExactly(Map.entry("C", 1L));
    assertThat(q.problems())
        .containsExactly(
            "volcano.sh/card.quota: \"A|B\" names several cards; a quota is given per card, entry"
                + " ignored");
  }

  @Test
  void request_keepsAlternativesNormalised() {
    CardAnnotations.Counts r = CardAnnotations.request("{\"A | B\": 3, \"C\": 1}");

    assertThat(r.problems()).isEmpty();
    assertThat(r.counts()).containsExactly(Map.entry("A|B", 3L), Map.entry("C", 1L));
  }

  @Test
  void request_problemsNameTheAnnotation() {
    assertThat(CardAnnotations.request("nope").problems())
        .containsExactly(
            "volcano.sh/card.request: unexpected 'n' at offset 0, expected a JSON object such as"
                + " {\"NVIDIA-H200\": 2}");
    CardAnnotations.Counts r = CardAnnotations.request("{\"A||B\": 1, \"C\": 2}");
    assertThat(r.counts()).containsExactly(Map.entry("C", 2L));
    assertThat(r.problems())
        .containsExactly("volcano.sh/card.request: \"A||B\" has an empty card name, entry ignored");
  }

  @Test
  void names_splitAlternativesInOrderWithoutRepeats() {
    assertThat(CardAnnotations.names("B|A| B").names()).containsExactly("B", "A");
    assertThat(CardAnnotations.names(null).names()).isEmpty();
    assertThat(CardAnnotations.names("A|").problem()).isEqualTo("\"A|\" has an empty card name");
    assertThat(CardAnnotations.names("A").names()).isEqualTo(List.of("A"));
  }
}
