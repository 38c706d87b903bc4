package dev.caldera.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed plugin reference pages are what the generator makes from the code. With {@code
 * -Dcaldera.docs.write=true} the tests write the pages instead (see {@link
 * PluginPages#REGENERATE}).
 */
class PluginPagesTest {

  private static final boolean WRITE = Boolean.getBoolean("caldera.docs.write");

  @TestFactory
  Stream<DynamicTest> everyPluginPage_isUpToDate() {
    Path root = DocsRoot.path();
    Map<String, String> expected = PluginPages.of(root).expected();
    return expected.entrySet().stream()
        .map(
            e ->
                dynamicTest(
                    e.getKey(),
                    () -> {
                      Path file = root.resolve(e.getKey());
                      if (WRITE) {
                        Files.createDirectories(file.getParent());
                        Files.writeString(file, e.getValue());
                      }
                      assertThat(Staleness.problem(file, e.getValue(), e.getKey())).isNull();
                    }));
  }

  @Test
  void everyPluginDirectory_hasItsFactoryOnTheClassPath() {
    PluginPages pages = PluginPages.of(DocsRoot.path());

    assertThat(PluginPages.factories().keySet())
        .as("plugins found by ServiceLoader; a new plugin needs a dependency in tools/docs/pom.xml")
        .containsExactlyElementsOf(pages.pluginDirectories());
  }

  @Test
  void docsPluginsDirectory_holdsOnlyGeneratedPages() throws IOException {
    Path root = DocsRoot.path();
    Map<String, String> expected = PluginPages.of(root).expected();
    try (Stream<Path> files = Files.list(root.resolve("docs/plugins"))) {
      List<String> committed = files.map(f -> "docs/plugins/" + f.getFileName()).sorted().toList();
      assertThat(committed)
          .as("a page of a plugin that no longer exists is deleted")
          .containsExactlyInAnyOrderElementsOf(expected.keySet());
    }
  }

  @Test
  void stalePage_isReportedWithTheCommandThatRegeneratesIt(@TempDir Path dir) throws IOException {
    Path page = dir.resolve("binpack.md");
    Files.writeString(page, "# Plugin `binpack`\n\nold text\n");

    String problem =
        Staleness.problem(page, "# Plugin `binpack`\n\nnew text\n", "docs/plugins/binpack.md");

    assertThat(problem)
        .contains("docs/plugins/binpack.md is stale")
        .contains("line 3")
        .contains(PluginPages.REGENERATE);
  }

  @Test
  void missingPage_isReported(@TempDir Path dir) {
    assertThat(Staleness.problem(dir.resolve("gang.md"), "text\n", "docs/plugins/gang.md"))
        .contains("docs/plugins/gang.md is missing")
        .contains(PluginPages.REGENERATE);
  }

  @Test
  void binpackPage_listsItsArgumentsWithKeysTypesDefaults_andItsNodeOrder() {
    String page = PluginPages.of(DocsRoot.path()).expected().get("docs/plugins/binpack.md");

    assertThat(page)
        .contains("| `binpack.weight` | `int` | `1` |")
        .contains("| `binpack.cpu` | `int` | `1` |")
        .contains("| `nodeOrder` | `NodeOrderFn` | yes | `enableNodeOrder` |");
  }
}
