package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each extension point's contract is in its own file: every {@code api/extension/*Fn} type and the
 * event handler say in their Javadoc which actions call them, how several plugins' answers combine,
 * the conf flag that gates them, their threading rule and, when the answer is an object, what null
 * means.
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
