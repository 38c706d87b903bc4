package dev.caldera.dsl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The benchmark's setup holds: both implementations agree on its 1,000 candidates. */
class TidalBenchmarkTest {

  @Test
  void compiledAndHandWritten_allowTheSameVictims() throws Exception {
    TidalBenchmark b = new TidalBenchmark();
    b.setUp();

    assertThat(b.compiled().tasks()).isNotEmpty().isEqualTo(b.handWritten().tasks());
  }
}
