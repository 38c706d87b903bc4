package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class ErrorsTest {

  @Test
  void describe_namesTheClassOfAnUnexpectedRuntimeException() {
    assertThat(Errors.describe(new IllegalStateException("boom")))
        .isEqualTo("IllegalStateException: boom");
  }

  @Test
  void describe_usesTheClassNameWhenThereIsNoMessage() {
    assertThat(Errors.describe(new NullPointerException()))
        .isEqualTo("java.lang.NullPointerException");
  }

  @Test
  void describe_appendsCausesThatAddSomething() {
    IOException cause = new IOException("disk full");

    assertThat(Errors.describe(new UncheckedIOException("cannot write", cause)))
        .isEqualTo("UncheckedIOException: cannot write: disk full");
  }

  @Test
  void describe_skipsACauseAlreadyInTheMessage() {
    IOException cause = new IOException("disk full");

    assertThat(Errors.describe(new UncheckedIOException(cause)))
        .isEqualTo("UncheckedIOException: java.io.IOException: disk full");
  }
}
