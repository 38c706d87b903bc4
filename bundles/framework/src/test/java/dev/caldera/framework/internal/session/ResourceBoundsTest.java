package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.resource.Quantity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A quantity is accepted from 0 up to Kubernetes' largest milli-value, and nothing else. */
class ResourceBoundsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "100m",
        "1Gi",
        "999999999999999", // 15 digits
        "1000000000000000", // 16 digits, still below the bound
        "9223372036854775807m", // the bound itself
        "9223372036854775.807",
        "0.000000000000000000001"
      })
  void withinTheBounds_isAccepted(String text) {
    assertThat(ResourceBounds.problem(Quantity.parse(text))).isNull();
  }

  @Test
  void oneThousandthAboveTheBound_isRefused() {
    assertThat(ResourceBounds.problem(Quantity.parse("9223372036854775808m")))
        .contains("is too large; expected at most 9223372036854775.807");
  }

  @Test
  void sixteenDigitsAboveTheBound_isRefused() {
    assertThat(ResourceBounds.problem(Quantity.parse("9999999999999999"))).contains("too large");
  }

  @Test
  void aBinarySuffixPastTheBound_isRefused() {
    assertThat(ResourceBounds.problem(Quantity.parse("8Ei"))).contains("too large");
  }

  @Test
  void aNegativeQuantity_isRefused() {
    assertThat(ResourceBounds.problem(Quantity.parse("-1"))).contains("is negative");
  }
}
