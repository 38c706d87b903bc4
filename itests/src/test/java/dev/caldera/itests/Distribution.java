package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

/** Where the unpacked distribution built by {@code runtime} is. */
final class Distribution {

  private Distribution() {}

  /** {@code runtime/target/caldera}, from the system property {@code caldera.dist.dir}. */
  static Path dir() {
    String dir = System.getProperty("caldera.dist.dir");
    assertThat(dir).as("system property caldera.dist.dir").isNotBlank();
    Path p = Path.of(dir).toAbsolutePath().normalize();
    assertThat(p)
        .as("the distribution (built by `mvn -B package` in runtime) at %s", p)
        .isDirectory();
    return p;
  }

  /** The class data training's jar, in the distribution's lib/training/, on no class path. */
  static Path cdsTrainingJar() {
    Path jar = dir().resolve("lib/training/caldera-cds-training.jar");
    assertThat(jar).as("the training jar (built by `mvn -B package` in runtime)").isRegularFile();
    return jar;
  }

  /** The demo scenario shipped in the distribution. */
  static Path demo() {
    return dir().resolve("scenarios/demo.yaml");
  }
}
