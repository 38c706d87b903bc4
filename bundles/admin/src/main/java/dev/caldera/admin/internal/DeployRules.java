package dev.caldera.admin.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.osgi.framework.Version;

/**
 * What {@code deploy/} accepts: plugin bundles only. A jar there is refused, and never installed,
 * when it is a fragment (a fragment of a core bundle would restart the scheduler with it), when it
 * provides no plugin or action service, when a bundle of the same symbolic name and version is
 * already installed from elsewhere (installing it would only update, and removing it later would
 * uninstall, that other bundle), or when it was built for an API this Caldera does not export (its
 * {@code Import-Package} range of a {@code dev.caldera.api} package misses the exported version).
 */
public final class DeployRules {

  /** Plain file names only: letters, digits, dot, dash, underscore; 1 to 100 characters. */
  private static final Pattern FILE_NAME =
      Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,95}\\.jar");

  private static final List<String> PLUGIN_SERVICES =
      List.of("dev.caldera.api.PluginFactory", "dev.caldera.api.action.Action");

  /** The admin API stages an upload as a hidden {@code .upload-*.part} file, then moves it in. */
  public static final String UPLOAD_PREFIX = ".upload-";

  public static final String UPLOAD_SUFFIX = ".part";

  private DeployRules() {}

  /**
   * Deletes the staged uploads in {@code deploy} that a run stopped mid-upload left (kill -9): at
   * start no upload of this process is in flight.
   *
   * @return the file names deleted
   */
  public static List<String> removeStaleUploads(Path deploy) {
    List<String> removed = new ArrayList<>();
    try (DirectoryStream<Path> parts =
        Files.newDirectoryStream(deploy, UPLOAD_PREFIX + "*" + UPLOAD_SUFFIX)) {
      for (Path p : parts) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(p)) {
          removed.add(p.getFileName().toString());
        }
      }
    } catch (IOException e) {
      // No deploy directory (yet) or not readable: nothing to clean, FileInstall reports it.
    }
    Collections.sort(removed);
    return removed;
  }

  /** A bundle that is installed: its identity and where it came from. */
  public record Installed(String symbolicName, Version version, String location) {}

  /**
   * Why the jar named {@code fileName} (in the deploy directory) must not be installed, or empty
   * when it may. A jar that is not a bundle at all is left to the other checks ({@link JarCheck}).
   */
  public static Optional<String> refusal(String fileName, byte[] jar, List<Installed> installed) {
    return refusal(fileName, jar, installed, Map.of());
  }

  /**
   * As {@link #refusal(String, byte[], List)}, and also refused when the jar imports a package of
   * Caldera's API in a version range that misses the version {@code apiExports} (package → version
   * the running API bundle exports; empty when unknown) holds, or a package it does not export.
   */
  public static Optional<String> refusal(
      String fileName, byte[] jar, List<Installed> installed, Map<String, Version> apiExports) {
    Manifest m;
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      m = in.getManifest();
    } catch (IOException e) {
      return Optional.empty();
    }
    if (m == null || m.getMainAttributes().getValue("Bundle-SymbolicName") == null) {
      return Optional.empty();
    }
    Attributes a = m.getMainAttributes();
    String bsn = a.getValue("Bundle-SymbolicName").split(";")[0].trim();
    String host = a.getValue("Fragment-Host");
    if (host != null) {
      return Optional.of(
          bsn
              + " is a fragment (Fragment-Host: "
              + host.split(";")[0].trim()
              + "); deploy/ takes plugin bundles only");
    }
    String provided = a.getValue("Provide-Capability");
    if (provided == null || PLUGIN_SERVICES.stream().noneMatch(provided::contains)) {
      return Optional.of(
          bsn
              + " is not a plugin: it provides no dev.caldera.api.PluginFactory or"
              + " dev.caldera.api.action.Action service; deploy/ takes plugin bundles only");
    }
    Version version;
    try {
      String v = a.getValue("Bundle-Version");
      version = v == null ? Version.emptyVersion : Version.parseVersion(v.trim());
    } catch (IllegalArgumentException e) {
      return Optional.of(bsn + " has an invalid Bundle-Version: " + e.getMessage());
    }
    Optional<String> api = ApiImports.mismatch(a.getValue("Import-Package"), apiExports);
    if (api.isPresent()) {
      return Optional.of(bsn + " " + version + " " + api.get());
    }
    for (Installed b : installed) {
      if (b.symbolicName().equals(bsn)
          && b.version().equals(version)
          && !locatedAt(b.location(), fileName)) {
        return Optional.of(
            bsn
                + " "
                + version
                + " is already installed from "
                + b.location()
                + "; this copy is ignored (removing it leaves the installed bundle alone)");
      }
    }
    return Optional.empty();
  }

  /**
   * Why the jar file is damaged (truncated, a bad entry), or empty when every entry reads back with
   * its checksum; the framework would fail to install it with a less telling message.
   */
  public static Optional<String> damage(Path jar) {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      byte[] buffer = new byte[8192];
      for (ZipEntry e : Collections.list(zip.entries())) {
        try (InputStream in = zip.getInputStream(e)) {
          while (in.read(buffer) >= 0) {
            // reading verifies the entry's CRC
          }
        } catch (IOException ex) {
          return Optional.of(
              "damaged jar: entry "
                  + e.getName()
                  + " does not read back ("
                  + ex.getMessage()
                  + ")");
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(
          "damaged jar (truncated or not a zip file): "
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }
  }

  /** Why {@code name} is not an acceptable jar file name, or empty when it is. */
  public static Optional<String> badFileName(String name) {
    if (FILE_NAME.matcher(name).matches()) {
      return Optional.empty();
    }
    StringBuilder shown = new StringBuilder();
    name.codePoints()
        .limit(60)
        .forEach(c -> shown.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : "?"));
    return Optional.of(
        "expected a file name of letters, digits, '.', '-' and '_' ending in .jar, at most 100"
            + " characters, got \""
            + shown
            + (name.length() > 60 ? "..." : "")
            + "\"");
  }

  /** Whether a bundle location is the deploy file {@code fileName}. */
  public static boolean locatedAt(String location, String fileName) {
    return location.endsWith("/" + fileName) || location.endsWith("\\" + fileName);
  }
}
