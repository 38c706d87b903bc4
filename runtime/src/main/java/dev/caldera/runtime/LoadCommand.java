package dev.caldera.runtime;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * {@code caldera load}: hands every argument to the load tool ({@code tools/load}, {@code
 * dev.caldera.load.LoadTool}), which parses them itself. The tool and fabric8 live in {@code
 * lib/load/}, not in {@code lib/}: {@code lib/} is the class path of every command (and of the
 * class data archive), and fabric8 belongs only to the tool and, embedded, to the kube bundle. So
 * the tool runs in a class loader of its own over {@code lib/load/*.jar}, whose parent is this
 * command's loader: picocli and Jackson come from {@code lib/}, the versions the tool was built
 * with. Without {@code lib/load/} (tests, the IDE) the tool is looked for on the class path.
 */
@Command(
    name = "load",
    description = {
      "Measure a scheduler's latency on a real API server (fake nodes, a paced stream or a"
          + " backlog of gangs or plain pods, creation-to-bound latency, throughput, CPU).",
      "Every option is the load tool's: caldera load --help lists them."
    })
final class LoadCommand implements Callable<Integer> {

  static final String TOOL = "dev.caldera.load.LoadTool";

  @ParentCommand CalderaCommand parent;

  /** Everything after {@code load}, unparsed (CalderaCommand stops parsing at the first). */
  @Unmatched List<String> args = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    ClassLoader loader = toolLoader(System.getProperty("caldera.home"));
    Method run =
        Class.forName(TOOL, true, loader)
            .getMethod("run", String[].class, PrintStream.class, PrintStream.class);
    Thread current = Thread.currentThread();
    ClassLoader previous = current.getContextClassLoader();
    // fabric8 finds parts of itself through the context class loader.
    current.setContextClassLoader(loader);
    try {
      return (Integer) run.invoke(null, args.toArray(String[]::new), parent.out(), parent.err());
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    } finally {
      current.setContextClassLoader(previous);
    }
  }

  /**
   * A loader over {@code home/lib/load/*.jar} (in name order) when there are such jars; else this
   * class's loader if the tool is on the class path.
   *
   * @throws IllegalStateException if the tool is in neither place
   */
  static ClassLoader toolLoader(String home) throws IOException {
    ClassLoader cli = LoadCommand.class.getClassLoader();
    Path dir = home == null ? null : Path.of(home, "lib", "load");
    if (dir != null && Files.isDirectory(dir)) {
      List<URL> jars = new ArrayList<>();
      try (Stream<Path> files = Files.list(dir)) {
        for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
          jars.add(url(jar));
        }
      }
      if (!jars.isEmpty()) {
        return new URLClassLoader("caldera-load", jars.toArray(URL[]::new), cli);
      }
    }
    try {
      Class.forName(TOOL, false, cli);
      return cli;
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "the load tool is not installed: no jars in "
              + (dir == null ? "lib/load/ (caldera.home is not set)" : dir)
              + "; the distribution built by `mvn -B package` has them",
          e);
    }
  }

  private static URL url(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(jar.toString(), e);
    }
  }
}
