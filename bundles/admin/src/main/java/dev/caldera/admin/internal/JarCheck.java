package dev.caldera.admin.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;

/** Whether a jar can be an OSGi bundle at all, and if not, why. */
public final class JarCheck {

  private JarCheck() {}

  /** The bundle's symbolic name and version, read from a valid bundle jar. */
  public record Identity(String symbolicName, String version) {}

  /** Why {@code jar} is not an OSGi bundle, or empty when its manifest makes it one. */
  public static Optional<String> problem(byte[] jar) {
    try {
      return problem(identity(new ByteArrayInputStream(jar)));
    } catch (IOException e) {
      return Optional.of("not a jar (zip) file: " + e.getMessage());
    }
  }

  /** Why the file is not an OSGi bundle, or empty when its manifest makes it one. */
  public static Optional<String> problem(Path jar) {
    try (InputStream in = Files.newInputStream(jar)) {
      return problem(identity(in));
    } catch (IOException e) {
      return Optional.of("not a jar (zip) file: " + e.getMessage());
    }
  }

  /** The symbolic name and version of a bundle jar. */
  public static Optional<Identity> identity(byte[] jar) {
    try {
      Manifest m = new JarInputStream(new ByteArrayInputStream(jar)).getManifest();
      if (m == null) {
        return Optional.empty();
      }
      Attributes a = m.getMainAttributes();
      String bsn = a.getValue("Bundle-SymbolicName");
      if (bsn == null) {
        return Optional.empty();
      }
      String version = a.getValue("Bundle-Version");
      return Optional.of(
          new Identity(bsn.split(";")[0].trim(), version == null ? "0.0.0" : version.trim()));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Manifest identity(InputStream in) throws IOException {
    JarInputStream jar = new JarInputStream(in);
    Manifest m = jar.getManifest();
    if (m == null && jar.getNextJarEntry() == null) {
      throw new IOException("no entries");
    }
    return m == null ? new Manifest() : m;
  }

  private static Optional<String> problem(Manifest m) {
    Attributes a = m.getMainAttributes();
    if (a.isEmpty()) {
      return Optional.of("no META-INF/MANIFEST.MF: not an OSGi bundle");
    }
    if (a.getValue("Bundle-SymbolicName") == null) {
      return Optional.of("its manifest has no Bundle-SymbolicName: not an OSGi bundle");
    }
    String mv = a.getValue("Bundle-ManifestVersion");
    if (mv == null || !mv.trim().equals("2")) {
      return Optional.of("Bundle-ManifestVersion is " + mv + ", expected 2 (an OSGi R4+ bundle)");
    }
    return Optional.empty();
  }
}
