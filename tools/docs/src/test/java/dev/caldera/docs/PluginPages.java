package dev.caldera.docs;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Generates {@code docs/plugins/<name>.md} for every plugin on the class path (found as the runtime
 * finds them: {@code META-INF/services/dev.caldera.api.PluginFactory}), and the list of plugins in
 * {@code docs/plugins/index.md} between its two generated-list markers. A page is made of the
 * plugin class's Javadoc, its {@code *Arguments} records ({@link ArgumentsTable}) and the extension
 * points it registers ({@link ExtensionPointSource}).
 */
final class PluginPages {

  /** The command that rewrites the pages, for the user of a failing check. */
  static final String REGENERATE =
      "mvn -B -pl tools/docs -am install -DskipTests -q"
          + " && mvn -B -pl tools/docs test -Dcaldera.docs.write=true";

  static final String LIST_START = "<!-- generated plugin list: start -->";
  static final String LIST_END = "<!-- generated plugin list: end -->";

  /**
   * Arguments a plugin is opened with to record its registrations, where its defaults do not open
   * (a required argument) or register what it does only once configured.
   */
  static final Map<String, Map<String, Object>> EXAMPLE_ARGUMENTS =
      Map.of(
          "extender",
          Map.of(
              "extender.urlPrefix", "http://127.0.0.1:1",
              "extender.predicateVerb", "predicate",
              "extender.prioritizeVerb", "prioritize",
              "extender.preemptableVerb", "preemptable",
              "extender.reclaimableVerb", "reclaimable",
              "extender.queueOverusedVerb", "queueOverused",
              "extender.jobEnqueueableVerb", "jobEnqueueable",
              "extender.jobEnqueuedVerb", "jobEnqueued",
              "extender.jobReadyVerb", "jobReady"),
          "policy",
          Map.of("policies", List.of("tidal")));

  private final Path root;
  private final ExtensionPointSource points;

  PluginPages(Path root, ExtensionPointSource points) {
    this.root = root;
    this.points = points;
  }

  /** The pages for {@code root}'s shipped policies and the plugins on the class path. */
  static PluginPages of(Path root) {
    Map<String, String> policies = new TreeMap<>();
    try (Stream<Path> files = Files.list(root.resolve("policies"))) {
      for (Path p : files.filter(f -> f.toString().endsWith(".policy")).sorted().toList()) {
        policies.put(p.getFileName().toString(), Files.readString(p));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new PluginPages(root, new RecordedRegistrations(root, policies));
  }

  /** Every plugin factory on the class path, by plugin name. */
  static Map<String, PluginFactory> factories() {
    Map<String, PluginFactory> out = new TreeMap<>();
    for (PluginFactory f : ServiceLoader.load(PluginFactory.class)) {
      out.put(f.name(), f);
    }
    return out;
  }

  /** The directories of {@code bundles/plugins/}: one per plugin. */
  List<String> pluginDirectories() {
    try (Stream<Path> dirs = Files.list(root.resolve("bundles/plugins"))) {
      return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Path (relative to the root) → the text it must have. */
  Map<String, String> expected() {
    Map<String, String> out = new LinkedHashMap<>();
    Map<String, PluginFactory> factories = factories();
    for (PluginFactory f : factories.values()) {
      out.put("docs/plugins/" + f.name() + ".md", page(f));
    }
    out.put("docs/plugins/index.md", index(factories));
    return out;
  }

  /** {@code index.md} with its generated list replaced. */
  String index(Map<String, PluginFactory> factories) {
    String text = read(root.resolve("docs/plugins/index.md"));
    int start = text.indexOf(LIST_START);
    int end = text.indexOf(LIST_END);
    if (start < 0 || end < start) {
      throw new IllegalStateException(
          "docs/plugins/index.md: expected the markers " + LIST_START + " and " + LIST_END);
    }
    StringBuilder list = new StringBuilder(LIST_START).append("\n\n");
    list.append("| plugin | what it does |\n|---|---|\n");
    for (PluginFactory f : factories.values()) {
      Plugin plugin = create(f);
      String summary =
          Javadoc.cell(
              Javadoc.firstSentence(Javadoc.markdown(pluginComment(f, plugin), plugin.getClass())));
      list.append("| [`")
          .append(f.name())
          .append("`](")
          .append(f.name())
          .append(".md) | ")
          .append(summary)
          .append(" |\n");
    }
    list.append('\n');
    return text.substring(0, start) + list + text.substring(end);
  }

  /** The reference page of one plugin. */
  String page(PluginFactory factory) {
    String name = factory.name();
    Plugin plugin = create(factory);
    Path dir = sourceDirectory(factory.getClass());
    String module = root.relativize(dir).toString().replace('\\', '/');
    StringBuilder out = new StringBuilder();
    out.append("# Plugin `").append(name).append("`\n\n");
    out.append("<!-- Generated from the plugin's code by tools/docs (PluginPages); do not edit.\n")
        .append("     Regenerate: ")
        .append(REGENERATE)
        .append(" -->\n\n");
    out.append(
            Javadoc.markdown(
                Javadoc.description(pluginComment(factory, plugin)), plugin.getClass()))
        .append("\n\n");
    out.append("Bundle: [`")
        .append(module)
        .append("`](../../")
        .append(module)
        .append("). In the conf: `- name: ")
        .append(name)
        .append("` in a tier's `plugins`, with `arguments:` as below.\n\n");

    out.append("## Arguments\n\n");
    List<Class<?>> records = argumentRecords(dir, factory.getClass().getPackageName());
    if (records.isEmpty()) {
      out.append("None: the plugin reads no `arguments`.\n\n");
    }
    for (Class<?> type : records) {
      Path source = sourceOf(dir, type);
      String about = Javadoc.description(Javadoc.ofType(read(source), type.getSimpleName()));
      if (!about.isEmpty()) {
        out.append(Javadoc.markdown(about, type)).append("\n\n");
      }
      out.append("From [`")
          .append(type.getSimpleName())
          .append("`](../../")
          .append(root.relativize(source).toString().replace('\\', '/'))
          .append(
              "). A default of \"—\" means the meaning says it (or the argument is required).\n\n");
      out.append("| key | type | default | meaning |\n|---|---|---|---|\n");
      for (ArgumentsTable.Row r : ArgumentsTable.rows(type, read(source), name)) {
        out.append("| ")
            .append(r.key() == null ? "(" + r.component() + ")" : "`" + r.key() + "`")
            .append(" | `")
            .append(r.type())
            .append("` | ")
            .append(r.defaultValue() == null ? "—" : "`" + r.defaultValue() + "`")
            .append(" | ")
            .append(r.meaning().isEmpty() ? "—" : r.meaning())
            .append(" |\n");
      }
      out.append('\n');
    }

    out.append("## Extension points\n\n");
    Map<String, Object> example = EXAMPLE_ARGUMENTS.get(name);
    List<ExtensionPointSource.Registration> registered = points.registrations(plugin);
    out.append("What the plugin registers when a session opens, with ")
        .append(example == null ? "no arguments" : "the arguments " + inline(example))
        .append(" (other arguments may register less or more: see the meanings above). A function")
        .append(" takes part only while its point's gate (a flag of the plugin's conf entry, on")
        .append(" unless it says `false`) is on; \"—\" means no flag gates the point.\n\n");
    if (registered.isEmpty()) {
      out.append("Nothing.\n");
    } else {
      out.append("| point | function | node-local | gate | contract |\n|---|---|---|---|---|\n");
      for (ExtensionPointSource.Registration r : registered) {
        String gate = points.gates(r.point());
        out.append("| `")
            .append(r.point().name())
            .append("` | `")
            .append(r.point().type().getSimpleName())
            .append(r.functions() > 1 ? "` ×" + r.functions() : "`")
            .append(" | ")
            .append(r.nodeLocal() ? "yes" : "")
            .append(" | ")
            .append(gate.isEmpty() ? "—" : gate)
            .append(" | ")
            .append(points.contract(r.point()))
            .append(" |\n");
      }
    }
    return out.toString();
  }

  private static String inline(Map<String, Object> args) {
    StringBuilder out = new StringBuilder("`{");
    new TreeMap<>(args)
        .forEach(
            (k, v) -> {
              if (out.length() > 2) {
                out.append(", ");
              }
              out.append(k).append(": ").append(v);
            });
    return out.append("}`").toString();
  }

  private static Plugin create(PluginFactory f) {
    Map<String, Object> example = EXAMPLE_ARGUMENTS.getOrDefault(f.name(), Map.of());
    return f.create(new PluginArguments(f.name(), example, false));
  }

  private String pluginComment(PluginFactory factory, Plugin plugin) {
    Path dir = sourceDirectory(factory.getClass());
    Class<?> type = plugin.getClass();
    return Javadoc.ofType(read(sourceOf(dir, type)), type.getSimpleName());
  }

  /** The plugin's module directory, the one whose main sources hold {@code factory}. */
  private Path sourceDirectory(Class<?> factory) {
    String relative = "src/main/java/" + factory.getName().replace('.', '/') + ".java";
    for (String d : pluginDirectories()) {
      Path dir = root.resolve("bundles/plugins").resolve(d);
      if (Files.isRegularFile(dir.resolve(relative))) {
        return dir;
      }
    }
    throw new IllegalStateException("no bundles/plugins/*/" + relative);
  }

  private static Path sourceOf(Path dir, Class<?> type) {
    Class<?> top = type;
    while (top.getEnclosingClass() != null) {
      top = top.getEnclosingClass();
    }
    return dir.resolve("src/main/java").resolve(top.getName().replace('.', '/') + ".java");
  }

  /** The records named {@code *Arguments} in the plugin's package, by name. */
  private static List<Class<?>> argumentRecords(Path dir, String packageName) {
    Path pkg = dir.resolve("src/main/java").resolve(packageName.replace('.', '/'));
    List<Class<?>> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(pkg)) {
      for (Path f : files.sorted().toList()) {
        String file = f.getFileName().toString();
        if (!file.endsWith("Arguments.java")) {
          continue;
        }
        Class<?> type =
            Class.forName(packageName + "." + file.substring(0, file.length() - ".java".length()));
        if (type.isRecord()) {
          out.add(type);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
    out.sort(Comparator.comparing(Class::getSimpleName));
    return out;
  }

  static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
