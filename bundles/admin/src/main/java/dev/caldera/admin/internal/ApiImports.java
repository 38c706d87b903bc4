package dev.caldera.admin.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * A plugin's {@code Import-Package} ranges of Caldera's API packages against the versions the
 * running API bundle exports. bnd gives a plugin built against API {@code 1.4.0} the range {@code
 * [1.4,2)}: it runs on any later minor version and on no other major one. Without this check such a
 * plugin would be installed and stay unresolved with the framework's message about one missing
 * requirement; the refusal names both versions.
 */
public final class ApiImports {

  static final String API_PACKAGE = "dev.caldera.api";

  private ApiImports() {}

  /**
   * Why the imports in {@code importPackage} (a manifest header, or null) do not fit {@code
   * exports} (package → exported version; empty when unknown, then nothing is refused), or empty
   * when they fit. Optional imports are not judged.
   */
  public static Optional<String> mismatch(String importPackage, Map<String, Version> exports) {
    if (importPackage == null || exports.isEmpty()) {
      return Optional.empty();
    }
    for (String clause : split(importPackage, ',')) {
      List<String> parts = split(clause, ';');
      List<String> packages = new ArrayList<>();
      String range = null;
      boolean optional = false;
      for (String part : parts) {
        String p = part.trim();
        int eq = p.indexOf('=');
        if (eq < 0) {
          packages.add(p);
          continue;
        }
        String key = p.substring(0, eq).trim();
        String value = unquote(p.substring(eq + 1).trim());
        if (key.equals("version") || key.equals("version:Version")) {
          range = value;
        } else if (key.equals("resolution:") && value.equals("optional")) {
          optional = true;
        }
      }
      if (optional) {
        continue;
      }
      for (String pkg : packages) {
        if (!pkg.equals(API_PACKAGE) && !pkg.startsWith(API_PACKAGE + ".")) {
          continue;
        }
        Version exported = exports.get(pkg);
        if (exported == null) {
          return Optional.of(
              "was built for another Caldera API: it imports "
                  + pkg
                  + (range == null ? "" : " version " + range)
                  + ", which this Caldera's API does not export (it exports "
                  + API_PACKAGE
                  + " "
                  + apiVersion(exports)
                  + ")");
        }
        if (range == null) {
          continue;
        }
        VersionRange wanted;
        try {
          wanted = VersionRange.valueOf(range);
        } catch (IllegalArgumentException e) {
          return Optional.of(
              "has an invalid version range for " + pkg + " in Import-Package: \"" + range + "\"");
        }
        if (!wanted.includes(exported)) {
          return Optional.of(
              "was built for another Caldera API: it imports "
                  + pkg
                  + " version "
                  + wanted
                  + " and this Caldera exports "
                  + pkg
                  + " "
                  + exported
                  + "; build it against caldera-api of this Caldera (or one whose "
                  + pkg
                  + " is in that range)");
        }
      }
    }
    return Optional.empty();
  }

  private static String apiVersion(Map<String, Version> exports) {
    Version v = exports.get(API_PACKAGE);
    return v == null ? new TreeMap<>(exports).toString() : v.toString();
  }

  private static String unquote(String s) {
    return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")
        ? s.substring(1, s.length() - 1)
        : s;
  }

  /** Splits on {@code separator} outside double quotes. */
  private static List<String> split(String s, char separator) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (char c : s.toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
      }
      if (c == separator && !quoted) {
        out.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    out.add(current.toString());
    return out;
  }
}
