package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.framework.ExtensionTable;
import dev.caldera.framework.conf.Flag;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each extension point's contract is in its own file: every {@code api/extension/*Fn} type and the
 * event handler say in their Javadoc which actions call them, how several plugins' answers combine,
 * the conf flag that gates them, their threading rule and, when the answer is an object, what null
 * means. The gates the Javadoc names are the ones the framework's {@link ExtensionTable} applies.
 */
class ExtensionContractsTest {

  private static final Path EXTENSION =
      Path.of("..", "bundles", "api", "src", "main", "java", "dev", "caldera", "api", "extension");

  private static final List<String> SECTIONS =
      List.of("Called by:", "Combined:", "Gate:", "Threading:", "Null:");

  @Test
  void everyFunctionTypeStatesItsContract() throws IOException {
    List<String> missing = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> listed = Files.list(EXTENSION)) {
      files =
          listed
              .filter(
                  p -> {
                    String name = p.getFileName().toString();
                    return name.endsWith("Fn.java") || name.equals("EventHandler.java");
                  })
              .sorted()
              .toList();
    }
    for (Path file : files) {
      String text = Files.readString(file);
      for (String section : SECTIONS) {
        if (section.equals("Null:") && !answersAnObject(file)) {
          continue;
        }
        if (!text.contains(section)) {
          missing.add(file.getFileName() + " lacks " + section);
        }
      }
    }
    assertThat(files).hasSizeGreaterThan(20);
    assertThat(missing).isEmpty();
  }

  private static final Pattern GATE =
      Pattern.compile("<li>Gate:(.*?)(?:<li>|</ul>)", Pattern.DOTALL);
  private static final Pattern CODE = Pattern.compile("\\{@code (\\w+)}");

  @Test
  void everyGateBullet_namesTheFlagsOfTheExtensionTable() throws IOException {
    List<String> differences = new ArrayList<>();
    for (ExtensionPoint<?> point : ExtensionPoint.ALL) {
      Path file = EXTENSION.resolve(point.type().getSimpleName() + ".java");
      if (!Files.exists(file)) {
        differences.add(point + ": no file " + file.getFileName());
        continue;
      }
      Set<String> documented = documentedGates(Files.readString(file));
      Set<String> table =
          ExtensionTable.of(point).gates().stream()
              .map(Flag::key)
              .collect(Collectors.toCollection(TreeSet::new));
      if (documented == null) {
        differences.add(point + ": " + file.getFileName() + " has no Gate: bullet");
      } else if (!documented.equals(table)) {
        differences.add(
            point + ": " + file.getFileName() + " says " + documented + ", the table " + table);
      }
    }
    assertThat(ExtensionTable.rows()).hasSameSizeAs(ExtensionPoint.ALL);
    assertThat(differences).isEmpty();
  }

  @Test
  void gateBullets_areReadAsTheFlagsTheyName() {
    assertThat(documentedGates(" * <ul>\n *   <li>Gate: none (always on).\n * </ul>")).isEmpty();
    assertThat(
            documentedGates(
                " *   <li>Gate: {@code enablePreemptable} or\n *       {@code enabledAllocatable}.\n"
                    + " *   <li>Threading: {@code x}"))
        .containsExactly("enablePreemptable", "enabledAllocatable");
    assertThat(documentedGates(" *   <li>Called by: {@code allocate}.\n")).isNull();
  }

  /** The flag keys a Javadoc's "Gate:" bullet names, sorted; empty for none; null without one. */
  static Set<String> documentedGates(String javadoc) {
    Matcher bullet = GATE.matcher(javadoc);
    if (!bullet.find()) {
      return null;
    }
    Set<String> keys = new TreeSet<>();
    Matcher code = CODE.matcher(bullet.group(1));
    while (code.find()) {
      keys.add(code.group(1));
    }
    return keys;
  }

  /** Whether the type's function returns an object (not a primitive, not void). */
  private static boolean answersAnObject(Path file) {
    String name = file.getFileName().toString().replace(".java", "");
    try {
      Class<?> type = Class.forName("dev.caldera.api.extension." + name);
      for (Method m : type.getMethods()) {
        if (!m.isDefault() && !m.getReturnType().isPrimitive()) {
          return true;
        }
      }
      return false;
    } catch (ClassNotFoundException e) {
      throw new AssertionError(name + " is not on the class path", e);
    }
  }
}
