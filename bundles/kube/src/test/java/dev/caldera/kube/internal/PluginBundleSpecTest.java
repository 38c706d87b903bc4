package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginBundleSpecTest {

  private static final String SHA = "AB".repeat(32);

  @Test
  void mavenCoordinates_resolveAgainstCentral_orTheGivenRepository() throws Exception {
    PluginBundleSpec s =
        PluginBundleSpec.parse(
            "p", 3, Map.of("maven", "dev.example.x:my-plugin:1.2.0", "sha256", SHA));
    assertThat(s.uri().toString())
        .isEqualTo(
            "https://repo.maven.apache.org/maven2/dev/example/x/my-plugin/1.2.0/my-plugin-1.2.0.jar");
    assertThat(s.sha256()).isEqualTo("ab".repeat(32));
    assertThat(s.generation()).isEqualTo(3);
    assertThat(
            PluginBundleSpec.parse(
                    "p",
                    1,
                    Map.of(
                        "maven",
                        "g:a:1",
                        "repository",
                        "https://nexus.example/repo",
                        "sha256",
                        SHA))
                .uri()
                .toString())
        .isEqualTo("https://nexus.example/repo/g/a/1/a-1.jar");
  }

  @Test
  void badSpecs_nameTheObjectTheFieldAndWhatWasExpected() {
    assertThatThrownBy(() -> PluginBundleSpec.parse("p", 1, Map.of("sha256", SHA)))
        .hasMessage("PluginBundle p: spec: expected exactly one of url and maven, got neither");
    assertThatThrownBy(
            () ->
                PluginBundleSpec.parse(
                    "p", 1, Map.of("url", "http://h/x.jar", "maven", "g:a:1", "sha256", SHA)))
        .hasMessage("PluginBundle p: spec: expected exactly one of url and maven, got both");
    assertThatThrownBy(
            () -> PluginBundleSpec.parse("p", 1, Map.of("url", "file:/etc/passwd", "sha256", SHA)))
        .hasMessage(
            "PluginBundle p: spec.url: expected an http or https URL, got file:/etc/passwd");
    assertThatThrownBy(() -> PluginBundleSpec.parse("p", 1, Map.of("maven", "g:a", "sha256", SHA)))
        .hasMessage("PluginBundle p: spec.maven: expected groupId:artifactId:version, got g:a");
    assertThatThrownBy(
            () -> PluginBundleSpec.parse("p", 1, Map.of("url", "http://h/x.jar", "sha256", "12")))
        .hasMessage(
            "PluginBundle p: spec.sha256: expected 64 hexadecimal digits (the jar's SHA-256), got 12");
  }
}
