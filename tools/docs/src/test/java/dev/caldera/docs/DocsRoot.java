package dev.caldera.docs;

import java.nio.file.Path;

/** The repository's root: {@code caldera.root} (set by the module's pom), else two levels up. */
final class DocsRoot {

  private DocsRoot() {}

  static Path path() {
    String root = System.getProperty("caldera.root");
    return (root == null || root.isBlank() ? Path.of("../..") : Path.of(root))
        .toAbsolutePath()
        .normalize();
  }
}
