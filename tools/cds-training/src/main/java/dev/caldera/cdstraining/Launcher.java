package dev.caldera.cdstraining;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Starts the {@link CdsTraining} from this jar without putting the jar on the class path: {@code
 * bin/caldera cds-training JAR} runs this class from the boot class path ({@code
 * -Xbootclasspath/a:JAR}) with the distribution's own class path, because a class data archive is
 * only used with the class path it was made with (or a longer one), and this jar does not ship. The
 * JVM accepts the archive without the boot class path entry. The training's classes are loaded by a
 * loader of their own, over this jar and below the distribution's class path, so they see the
 * command line (which the boot loader does not).
 */
public final class Launcher {

  private Launcher() {}

  /**
   * @param args the path of this jar
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: caldera cds-training JAR (the build's caldera-cds-training jar)");
      System.exit(2);
    }
    int code;
    try (TrainingLoader loader =
        new TrainingLoader(Path.of(args[0]).toUri().toURL(), ClassLoader.getSystemClassLoader())) {
      // By name: a class literal would have the boot loader load it, which cannot link it.
      Class<?> training = loader.loadClass("dev.caldera.cdstraining.CdsTraining");
      code = (Integer) training.getMethod("train").invoke(null);
    }
    // The JVM writes the archive as it exits: only then, and only after a training that passed.
    System.exit(code);
  }

  /** Loads this package's classes itself (the boot loader holds them too, but sees no more). */
  static final class TrainingLoader extends URLClassLoader {

    private static final String PACKAGE = Launcher.class.getPackageName() + ".";

    TrainingLoader(URL jar, ClassLoader parent) throws MalformedURLException {
      super(new URL[] {jar}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(PACKAGE)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
