package dev.caldera.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocLinksTest {

  /** Other helpers' notes wait in docs/pending/ until they are folded into the pages. */
  static final Set<String> EXCLUDED = Set.of("pending");

  @Test
  void readmeAndDocs_haveNoBrokenRelativeLinkOrAnchor() {
    DocLinks links = new DocLinks(DocsRoot.path());
    List<Path> files = links.files(EXCLUDED);
    assertThat(files).extracting(p -> p.getFileName().toString()).contains("README.md", "index.md");

    assertThat(files.stream().flatMap(f -> links.problems(f).stream()).toList())
        .as("broken links in README.md and docs/ (fix the link or the heading it names)")
        .isEmpty();
  }

  @Test
  void missingFile_isReported(@TempDir Path root) throws IOException {
    Files.writeString(root.resolve("README.md"), "See [the guide](docs/guide.md).\n");

    DocLinks links = new DocLinks(root);

    assertThat(links.problems(root.resolve("README.md")))
        .containsExactly("README.md:1: docs/guide.md: no such file docs/guide.md");
  }

  @Test
  void anchorWithoutHeading_isReported_andHeadingAnchorsResolve(@TempDir Path root)
      throws IOException {
    Files.createDirectories(root.resolve("docs"));
    Files.writeString(
        root.resolve("docs/a.md"),
        "# A\n\n## Why is it pending: `caldera why`, `caldera queues`\n\n## Notes\n\n## Notes\n");
    Files.writeString(
        root.resolve("README.md"),
        "[ok](docs/a.md#why-is-it-pending-caldera-why-caldera-queues)"
            + " [ok](docs/a.md#notes-1) [bad](docs/a.md#notes-2)\n");

    DocLinks links = new DocLinks(root);

    assertThat(links.problems(root.resolve("README.md")))
        .containsExactly(
            "README.md:1: docs/a.md#notes-2: no heading with the anchor #notes-2 in docs/a.md");
  }

  @Test
  void linksInCodeAreNotLinks_andUrlsAreNotChecked(@TempDir Path root) throws IOException {
    Files.writeString(
        root.resolve("README.md"),
        "```\n[x](nowhere.md)\n```\n`[y](nowhere.md)` [z](https://example.com/nowhere)\n");

    assertThat(new DocLinks(root).problems(root.resolve("README.md"))).isEmpty();
  }

  @Test
  void excludedDirectory_isNotChecked(@TempDir Path root) throws IOException {
    Files.createDirectories(root.resolve("docs/pending"));
    Files.writeString(root.resolve("docs/pending/h1.md"), "[x](nowhere.md)\n");
    Files.writeString(root.resolve("docs/a.md"), "# A\n");

    assertThat(new DocLinks(root).files(EXCLUDED)).containsExactly(root.resolve("docs/a.md"));
  }
}
