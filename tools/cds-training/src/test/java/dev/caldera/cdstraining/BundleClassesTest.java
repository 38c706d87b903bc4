package dev.caldera.cdstraining;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleClassesTest {

  @TempDir Path dir;

  @Test
  void linksTheClassesTheLogNamesFromAKnownJar_throughThatJarsLoader_andSkipsTheRest()
      throws Exception {
    Path log = dir.resolve("class-load.log");
    Files.writeString(
        log,
        String.join(
            "\n",
            "dev.caldera.cdstraining.TrainingTls source: file:/d/bundles/caldera-kube.jar",
            "dev.caldera.cdstraining.TrainingTls source: file:/d/bundles/caldera-kube.jar",
            "java.lang.String source: jrt:/java.base",
            "dev.caldera.cdstraining.Launcher source: file:/d/lib/other.jar",
            "no.such.Type source: file:/d/bundles/caldera-kube.jar",
            "dev.caldera.cdstraining.BundleClasses source: shared objects file (top)",
            "dev.caldera.cdstraining.CdsTraining source: file:/d/bundles/caldera-kube.jar"));
    Map<String, ClassLoader> loaders =
        Map.of("caldera-kube.jar", BundleClassesTest.class.getClassLoader());

    assertThat(BundleClasses.link(log, loaders)).isEqualTo(2);
  }

  @Test
  void noLog_linksNothing() {
    assertThat(BundleClasses.link(dir.resolve("missing.log"), Map.of())).isZero();
  }
}
