package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caldera load} hands its arguments to the load tool unparsed. Here the tool is on the
 * test's class path; {@code LoadCommandIT} runs it from the distribution's {@code lib/load/}.
 */
class LoadCommandTest {

  @TempDir Path home;

  private final CommandRun cli = new CommandRun();

  @Test
  void help_isTheToolsHelp_withEveryOptionAndItsDefault() {
    assertThat(cli.run("load", "--help")).isZero();

    assertThat(cli.out())
        .startsWith("Usage: caldera load ")
        .contains("--kubeconfig=FILE", "--rate=PODS_PER_SECOND", "--backlog=N", "--launch=COMMAND")
        .contains("(default: 200)", "(default: 60s)", "(default: volcano)");
  }

  @Test
  void theArguments_reachTheToolAsTheyAre_andAUsageErrorIsOneLineWithCode2() {
    Path missing = home.resolve("nope");

    assertThat(cli.run("load", "--kubeconfig", missing.toString(), "--stacktrace")).isEqualTo(2);
    assertThat(cli.err().lines().toList())
        .as("--stacktrace is the tool's to refuse, after the kubeconfig")
        .containsExactly("caldera load: Unknown option: '--stacktrace'");
  }

  @Test
  void aWrongValue_isTheToolsOneLine() {
    assertThat(cli.run("load", "--kubeconfig", home.resolve("k").toString(), "--rate", "fast"))
        .isEqualTo(2);
    assertThat(cli.err().lines().toList())
        .containsExactly(
            "caldera load: --rate: expected a number of pods per second greater than 0, got"
                + " 'fast'");
  }

  @Test
  void theCommandsHelp_listsLoad() {
    assertThat(cli.run("--help")).isZero();

    assertThat(cli.out()).contains("load");
  }

  @Test
  void withoutLibLoad_theToolIsLookedForOnTheClassPath() throws Exception {
    assertThat(LoadCommand.toolLoader(home.toString()))
        .isSameAs(LoadCommand.class.getClassLoader());
    assertThat(LoadCommand.toolLoader(null)).isSameAs(LoadCommand.class.getClassLoader());
  }

  @Test
  void libLoad_getsALoaderOfItsOwn_whoseParentIsTheCommandLines() throws Exception {
    Path lib = Files.createDirectories(home.resolve("lib/load"));
    Files.write(lib.resolve("empty.jar"), new byte[0]);

    ClassLoader loader = LoadCommand.toolLoader(home.toString());

    assertThat(loader).isNotSameAs(LoadCommand.class.getClassLoader());
    assertThat(loader.getParent()).isSameAs(LoadCommand.class.getClassLoader());
  }
}
