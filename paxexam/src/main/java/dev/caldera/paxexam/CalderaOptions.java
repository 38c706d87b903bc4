package dev.caldera.paxexam;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.ops4j.pax.exam.Option;

/**
 * The options of a Pax Exam {@code @Configuration} that boot Caldera: Declarative Services,
 * Configuration Admin, the API and its support bundle, the framework (the scheduling loop), the
 * embedded cluster, the shipped plugins a test names, this module's bundle, JUnit, and AssertJ when
 * the test has it. Runs on the test driver's side only.
 *
 * <pre>{@code
 * @Configuration
 * public Option[] config() {
 *   return CalderaOptions.caldera(CalderaOptions.bundleUnderTest(), "priority", "gang");
 * }
 * }</pre>
 */
public final class CalderaOptions {

  /** The system property naming the jar of the bundle under test. */
  public static final String BUNDLE_UNDER_TEST = "caldera.paxexam.bundle";

  /** What every container runs, by Bundle-SymbolicName, in start order. */
  static final List<String> CORE =
      List.of(
          "org.osgi.util.function",
          "org.osgi.util.promise",
          "org.osgi.service.component",
          "org.apache.felix.scr",
          "org.apache.felix.configadmin",
          "com.fasterxml.jackson.core.jackson-annotations",
          "com.fasterxml.jackson.core.jackson-core",
          "com.fasterxml.jackson.core.jackson-databind",
          "org.yaml.snakeyaml",
          "com.fasterxml.jackson.dataformat.jackson-dataformat-yaml",
          "org.antlr.antlr4-runtime",
          "dev.caldera.api",
          "caldera-api-support",
          "caldera-admission",
          "caldera-dsl",
          "caldera-framework",
          "caldera-sim",
          "caldera-paxexam");

  /** Bundles taken when the class path has them. */
  static final List<String> OPTIONAL =
      List.of(
          "com.fasterxml.jackson.datatype.jackson-datatype-jsr310",
          "assertj-core",
          "net.bytebuddy.byte-buddy");

  private CalderaOptions() {}

  /**
   * Caldera from the test's class path (the dependencies of {@code caldera-paxexam}, in the
   * versions Maven resolved) with the shipped plugins {@code plugins} (e.g. {@code "priority"},
   * {@code "gang"}) and {@code extra} (the bundle under test, say).
   *
   * @throws IllegalStateException naming the bundle when one is not on the class path
   */
  public static Option[] caldera(Option extra, String... plugins) {
    return caldera(bundlesOnClassPath(), extra, plugins);
  }

  /** As {@link #caldera(Option, String...)}, from these bundles (Bundle-SymbolicName → jar). */
  static Option[] caldera(Map<String, Path> onClassPath, Option extra, String... plugins) {
    List<Option> options = new ArrayList<>();
    for (String name : CORE) {
      options.add(bundle(uri(required(onClassPath, name, "a dependency of caldera-paxexam"))));
    }
    for (String name : OPTIONAL) {
      if (onClassPath.containsKey(name)) {
        options.add(bundle(uri(onClassPath.get(name))));
      }
    }
    for (String plugin : plugins) {
      String name = "caldera-plugin-" + plugin;
      options.add(bundle(uri(required(onClassPath, name, "a shipped plugin"))));
    }
    if (extra != null) {
      options.add(extra);
    }
    options.addAll(common());
    return options.toArray(new Option[0]);
  }

  /**
   * Every bundle of an unpacked distribution ({@code DIST/bundles} but the Gogo shell, and every
   * plugin of {@code DIST/deploy}), this module's bundle and the test's AssertJ.
   */
  public static Option[] distribution(Path dist) throws IOException {
    List<Option> options = new ArrayList<>();
    for (Path jar : jars(dist.resolve("bundles"))) {
      if (!jar.getFileName().toString().contains(".gogo.")) {
        options.add(bundle(uri(jar)));
      }
    }
    for (Path jar : jars(dist.resolve("deploy"))) {
      options.add(bundle(uri(jar)));
    }
    Map<String, Path> onClassPath = bundlesOnClassPath();
    options.add(bundle(uri(required(onClassPath, "caldera-paxexam", "the test's dependency"))));
    for (String name : OPTIONAL.subList(1, OPTIONAL.size())) {
      if (onClassPath.containsKey(name)) {
        options.add(bundle(uri(onClassPath.get(name))));
      }
    }
    options.addAll(common());
    return options.toArray(new Option[0]);
  }

  /**
   * The bundle under test: the jar the system property {@value #BUNDLE_UNDER_TEST} names (the
   * archetype's pom sets it to the project's jar for the failsafe tests).
   *
   * @throws IllegalStateException when the property is not set or the file is not there
   */
  public static Option bundleUnderTest() {
    String jar = System.getProperty(BUNDLE_UNDER_TEST);
    if (jar == null || jar.isBlank()) {
      throw new IllegalStateException(
          "system property "
              + BUNDLE_UNDER_TEST
              + " is not set: expected the path of the bundle under test (failsafe's"
              + " systemPropertyVariables)");
    }
    Path path = Path.of(jar);
    if (!Files.isRegularFile(path)) {
      throw new IllegalStateException(
          BUNDLE_UNDER_TEST + ": " + path + " is not a file (run the tests after package)");
    }
    return bundle(uri(path));
  }

  private static List<Option> common() {
    return List.of(
        frameworkProperty("ds.loglevel").value("warn"),
        systemProperty("org.ops4j.pax.logging.DefaultServiceLog.level").value("WARN"),
        junitBundles());
  }

  private static Path required(Map<String, Path> onClassPath, String name, String what) {
    Path jar = onClassPath.get(name);
    if (jar == null) {
      throw new IllegalStateException(
          "no bundle " + name + " on the test class path; expected it as " + what);
    }
    return jar;
  }

  private static String uri(Path jar) {
    return jar.toUri().toString();
  }

  private static List<Path> jars(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
    }
  }

  /**
   * Bundle-SymbolicName → jar, for the jars of the class path and the jar this class came from (a
   * test run from an IDE may have it elsewhere); the first of a name wins, as on a class path.
   */
  static Map<String, Path> bundlesOnClassPath() {
    List<Path> entries = new ArrayList<>();
    try {
      entries.add(
          Path.of(
              CalderaOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (URISyntaxException | SecurityException | NullPointerException e) {
      // Not from a jar we can name: the class path must have it.
    }
    for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        entries.add(Path.of(entry));
      }
    }
    Map<String, Path> found = new LinkedHashMap<>();
    for (Path entry : entries) {
      if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
        continue;
      }
      try (JarFile jar = new JarFile(entry.toFile())) {
        Manifest m = jar.getManifest();
        String bsn = m == null ? null : m.getMainAttributes().getValue("Bundle-SymbolicName");
        if (bsn != null) {
          found.putIfAbsent(bsn.split(";")[0].trim(), entry);
        }
      } catch (IOException e) {
        // Not a readable jar: not a bundle this container can use.
      }
    }
    return found;
  }
}
