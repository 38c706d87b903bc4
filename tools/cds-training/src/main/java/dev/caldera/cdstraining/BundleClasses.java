package dev.caldera.cdstraining;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Links the classes that bundle class loaders loaded but did not link. With Java 17 a dynamic class
 * data archive keeps a class of such a loader only if it is linked when the JVM exits (it links the
 * class path's classes itself, not these). Many classes are only loaded, never linked, by a start:
 * the verifier loads a type to check an assignment, and a class taken from the archive loads the
 * types of its recorded checks (fabric8's builders of every model class the client reads, most of
 * Jackson's serializers). Out of the archive each is read and parsed at every start; linked here,
 * they are mapped from it.
 */
final class BundleClasses {

  private BundleClasses() {}

  /** A line of {@code -Xlog:class+load=info} without decorations: name, then its jar. */
  private static final Pattern LOADED = Pattern.compile("^(\\S+) source: \\S*/([^/\\s]+\\.jar)$");

  /**
   * Links every class {@code log} names as loaded from the jar of one of {@code loaders} (by the
   * jar's file name), through that loader.
   *
   * @return how many classes were linked
   */
  static int link(Path log, Map<String, ClassLoader> loaders) {
    List<String> lines;
    try {
      lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return 0; // no log: an archive without these classes, as before
    }
    Map<String, ClassLoader> classes = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = LOADED.matcher(line);
      if (m.matches() && loaders.containsKey(m.group(2))) {
        classes.putIfAbsent(m.group(1), loaders.get(m.group(2)));
      }
    }
    int linked = 0;
    for (Map.Entry<String, ClassLoader> e : classes.entrySet()) {
      try {
        // Linked, not initialized: the JVM links a class before it reflects on its fields.
        Class.forName(e.getKey(), false, e.getValue()).getDeclaredFields();
        linked++;
      } catch (ClassNotFoundException | LinkageError | SecurityException ex) {
        // A class that does not link (an optional dependency missing) stays out of the archive.
      }
    }
    return linked;
  }
}
