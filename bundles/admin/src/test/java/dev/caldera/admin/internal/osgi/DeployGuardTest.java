package dev.caldera.admin.internal.osgi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;

class DeployGuardTest {

  private static final FileTime AN_HOUR_AGO =
      FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);

  @TempDir Path deploy;

  private DeployGuard guard;

  @BeforeEach
  void guard() {
    BundleContext framework = DeployFixtures.frameworkWithNoBundle(deploy);
    BundleAudit audit = new BundleAudit();
    audit.bind(framework, DeployFixtures.monitor(new ArrayList<>()));
    guard = new DeployGuard(audit, framework);
  }

  @Test
  void aJarClaimedWhileBeingWritten_isHandedBackToFileInstallOnceWhole() throws IOException {
    byte[] jar = DeployFixtures.pluginJar();
    Path file = deploy.resolve("binpack-v2.jar");
    Files.write(file, Arrays.copyOf(jar, jar.length - 40));
    assertThat(guard.canHandle(file.toFile())).as("claimed while cut short").isTrue();
    guard.install(file.toFile());

    Files.write(file, jar);
    Files.setLastModifiedTime(file, AN_HOUR_AGO);
    assertThat(guard.canHandle(file.toFile())).isFalse();
    guard.uninstall(file.toFile()); // what FileInstall calls when it lets go of the claim

    assertThat(Files.getLastModifiedTime(file)).isGreaterThan(AN_HOUR_AGO);
  }

  @Test
  void aJarStillRefused_isLeftAsItIs() throws IOException {
    Path file = deploy.resolve("broken.jar");
    byte[] jar = DeployFixtures.pluginJar();
    Files.write(file, Arrays.copyOf(jar, jar.length - 40));
    Files.setLastModifiedTime(file, AN_HOUR_AGO);

    guard.uninstall(file.toFile());

    assertThat(Files.getLastModifiedTime(file)).isEqualTo(AN_HOUR_AGO);
  }
}
