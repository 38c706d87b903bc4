package dev.caldera.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden tests for malformed scenarios: each file under {@code bad/} starts with {@code # error:
 * <message>}, and loading it must fail with exactly {@code <file>: <message>} on one line.
 */
class ScenarioLoaderErrorsTest {

  static Stream<Path> badFiles() throws URISyntaxException, IOException {
    Path dir = Path.of(ScenarioLoaderErrorsTest.class.getResource("/bad").toURI());
    List<Path> files = ScenarioLoader.expand(List.of(dir));
    assertThat(files).hasSizeGreaterThan(20);
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("badFiles")
  void load_malformedFile_failsWithOneLineNamingFileObjectAndField(Path file) throws IOException {
    String first = Files.readAllLines(file).get(0);
    assertThat(first).startsWith("# error: ");
    String expected = file + ": " + first.substring("# error: ".length());

    assertThatThrownBy(() -> ScenarioLoader.load(file))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(expected)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @org.junit.jupiter.api.Test
  void load_missingFile_namesFile() {
    Path file = Path.of("does-not-exist.yaml");
    assertThatThrownBy(() -> ScenarioLoader.load(file))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("does-not-exist.yaml: cannot read: no such file");
  }

  @org.junit.jupiter.api.Test
  void load_aDevice_isRefusedUnreadAsNotARegularFile() {
    Path zero = Path.of("/dev/zero");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(zero));

    assertThatThrownBy(() -> ScenarioLoader.load(zero))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "/dev/zero: cannot read: not a regular file (a device or a pipe?): only regular files"
                + " are read");
  }

  @org.junit.jupiter.api.Test
  void load_aNamedPipe_isRefusedWithoutWaitingForAWriter(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path fifo = dir.resolve("s.yaml");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor() == 0);

    assertThatThrownBy(() -> ScenarioLoader.load(fifo))
        .isInstanceOf(ScenarioException.class)
        .hasMessageEndingWith(
            "s.yaml: cannot read: not a regular file (a device or a pipe?): only"
                + " regular files are read");
  }
}
