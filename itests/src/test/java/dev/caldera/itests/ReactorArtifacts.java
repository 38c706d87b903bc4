package dev.caldera.itests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts this build's artifacts (each module's pom and jar, as {@code mvn install} would) into a
 * local Maven repository, so that a nested Maven build of a project outside this one (the
 * archetype's) resolves Caldera from there while {@code mvn verify} installs nothing.
 */
final class ReactorArtifacts {

  private static final Pattern MODULE =
      Pattern.compile("^\\s*<module>([^<]+)</module>", Pattern.MULTILINE);
  private static final Pattern PARENT = Pattern.compile("<parent>.*?</parent>", Pattern.DOTALL);
  private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>([^<]+)</artifactId>");
  private static final Pattern PACKAGING = Pattern.compile("<packaging>([^<]+)</packaging>");

  private ReactorArtifacts() {}

  /**
   * Copies the root pom and, for each module of the root pom, its pom and its built jar ({@code
   * target/ARTIFACT-VERSION.jar}; a module not packaged yet is left out) into {@code repository}.
   *
   * @return the artifact ids installed
   */
  static List<String> install(Path root, String version, Path repository) throws IOException {
    List<String> installed = new ArrayList<>();
    String rootPom = Files.readString(root.resolve("pom.xml"));
    put(root.resolve("pom.xml"), null, artifactId(rootPom), version, repository);
    installed.add(artifactId(rootPom));
    Matcher modules = MODULE.matcher(rootPom);
    while (modules.find()) {
      Path dir = root.resolve(modules.group(1).trim());
      String pom = Files.readString(dir.resolve("pom.xml"));
      String artifactId = artifactId(pom);
      Matcher packaging = PACKAGING.matcher(pom);
      Path jar = dir.resolve("target/" + artifactId + "-" + version + ".jar");
      boolean pomOnly = packaging.find() && packaging.group(1).equals("pom");
      if (!pomOnly && !Files.isRegularFile(jar)) {
        continue;
      }
      put(dir.resolve("pom.xml"), pomOnly ? null : jar, artifactId, version, repository);
      installed.add(artifactId);
    }
    return installed;
  }

  private static String artifactId(String pom) {
    Matcher m = ARTIFACT_ID.matcher(PARENT.matcher(pom).replaceFirst(""));
    if (!m.find()) {
      throw new IllegalStateException("a pom without artifactId");
    }
    return m.group(1).trim();
  }

  private static void put(Path pom, Path jar, String artifactId, String version, Path repository)
      throws IOException {
    Path dir = repository.resolve("dev/caldera").resolve(artifactId).resolve(version);
    Files.createDirectories(dir);
    String base = artifactId + "-" + version;
    Files.copy(pom, dir.resolve(base + ".pom"), StandardCopyOption.REPLACE_EXISTING);
    if (jar != null) {
      Files.copy(jar, dir.resolve(base + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
