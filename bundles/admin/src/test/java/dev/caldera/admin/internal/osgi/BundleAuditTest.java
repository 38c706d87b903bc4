package dev.caldera.admin.internal.osgi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.caldera.framework.loop.LoopEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deploy-directory part of the audit, round by round, on a framework with no bundle. */
class BundleAuditTest {

  @TempDir Path deploy;

  private final BundleAudit audit = new BundleAudit();
  private final List<LoopEvent> reports = new CopyOnWriteArrayList<>();

  @BeforeEach
  void bind() {
    audit.bind(DeployFixtures.frameworkWithNoBundle(deploy), DeployFixtures.monitor(reports));
  }

  @Test
  void aJarStillBeingCopiedIn_isNotRejected() throws IOException {
    byte[] jar = DeployFixtures.pluginJar();
    Path file = deploy.resolve("binpack-v2.jar");

    Files.write(file, new byte[0]); // cp has created the file, not written it yet
    audit.audit();
    Files.write(file, Arrays.copyOf(jar, jar.length / 2));
    audit.audit();
    Files.write(file, jar);
    audit.audit();

    assertThat(audit.fileProblems()).isEmpty();
    assertThat(reports).isEmpty();
  }

  @Test
  void aJarTheGuardClaimedWhileBeingWritten_isNotReportedOnceWhole() throws IOException {
    byte[] jar = DeployFixtures.pluginJar();
    Path file = deploy.resolve("binpack-v2.jar");
    Files.write(file, Arrays.copyOf(jar, jar.length / 2));
    audit.refused(file, "damaged jar (truncated or not a zip file): zip END header not found");

    Files.write(file, jar);
    audit.forget(file); // FileInstall let go of the guard's claim
    audit.audit();
    audit.audit();

    assertThat(reports).isEmpty();
    assertThat(audit.fileProblems()).isEmpty();
  }

  @Test
  void aJarTheGuardRefused_isReportedOnceWhenARoundFindsItUnchanged() throws IOException {
    Path file = deploy.resolve("fragment.jar");
    Files.writeString(file, "a fragment, say");
    audit.refused(file, "example is a fragment");
    assertThat(audit.fileProblems()).containsEntry("fragment.jar", "example is a fragment");

    audit.audit();
    audit.audit();
    audit.audit();

    assertThat(reports)
        .extracting(LoopEvent::reason, LoopEvent::message)
        .containsExactly(tuple("BundleRejected", file + ": example is a fragment"));
  }

  @Test
  void aJarThatStaysBroken_isRejectedOnceItStayedTheSameForARound() throws IOException {
    Files.writeString(deploy.resolve("broken.jar"), "not a jar");

    audit.audit();
    assertThat(audit.fileProblems()).isEmpty();
    audit.audit();

    assertThat(audit.fileProblems())
        .hasEntrySatisfying("broken.jar", why -> assertThat(why).contains("not a jar"));
    assertThat(reports).extracting(LoopEvent::reason).containsExactly("BundleRejected");
  }

  @Test
  void anEmptyJarLeftAsIs_isRejectedAtTheSecondRound() throws IOException {
    Files.write(deploy.resolve("empty.jar"), new byte[0]);

    audit.audit();
    audit.audit();

    assertThat(audit.fileProblems()).containsKey("empty.jar");
  }
}
