package dev.caldera.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One case per {@code src/test/resources/diagnostics/NAME.policy}: compiling it must give exactly
 * the diagnostics in {@code NAME.expected}, each as its code and its rendering (headline, source
 * line, caret).
 */
class DiagnosticsGoldenTest {

  static Stream<Path> cases() throws IOException, URISyntaxException {
    Path dir = Path.of(DiagnosticsGoldenTest.class.getResource("/diagnostics").toURI());
    return Files.list(dir).filter(p -> p.toString().endsWith(".policy")).sorted();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void compile_reportsExactlyTheExpectedDiagnostics(Path policy) throws IOException {
    String source = Files.readString(policy, StandardCharsets.UTF_8);
    String name = policy.getFileName().toString();
    Path expected = policy.resolveSibling(name.replace(".policy", ".expected"));

    CompileResult result = PolicyCompiler.compile(name, source);

    StringBuilder actual = new StringBuilder();
    for (Diagnostic d : result.diagnostics()) {
      actual.append(d.code().code()).append(' ').append(d.render()).append('\n');
    }
    assertThat(result.ok()).as("%s compiles", name).isFalse();
    assertThat(result.policy()).isNull();
    assertThat(actual.toString()).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
  }
}
