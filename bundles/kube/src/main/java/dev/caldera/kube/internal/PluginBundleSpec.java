package dev.caldera.kube.internal;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One {@code PluginBundle} object's spec: where the jar comes from and the SHA-256 it must have.
 *
 * @param name the object's name (the bundle's file in the deploy directory is named after it)
 * @param uri where the jar is fetched (from {@code spec.url}, or {@code spec.maven} resolved
 *     against {@code spec.repository})
 * @param sha256 the expected digest, lower-case hex
 * @param generation the object's {@code metadata.generation} this spec was read from
 */
public record PluginBundleSpec(String name, URI uri, String sha256, long generation) {

  /** Where {@code spec.maven} coordinates are looked up unless {@code spec.repository} says. */
  public static final String MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2/";

  private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
  private static final Pattern COORDINATE_PART = Pattern.compile("[A-Za-z0-9_.\\-]+");

  /** A spec that cannot be used; the message names the object, the field and what was expected. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid(String name, String field, String problem) {
      super("PluginBundle " + name + ": " + field + ": " + problem);
    }
  }

  /**
   * Reads {@code spec}: exactly one of {@code url} (http or https) and {@code maven} ({@code
   * group:artifact:version}, optionally {@code repository}), and {@code sha256}.
   */
  public static PluginBundleSpec parse(String name, long generation, Map<String, Object> spec)
      throws Invalid {
    if (spec == null) {
      throw new Invalid(name, "spec", "missing (expected url or maven, and sha256)");
    }
    Object url = spec.get("url");
    Object maven = spec.get("maven");
    if ((url == null) == (maven == null)) {
      throw new Invalid(
          name,
          "spec",
          "expected exactly one of url and maven, got " + (url == null ? "neither" : "both"));
    }
    URI uri = url != null ? httpUri(name, "spec.url", url) : mavenUri(name, spec, maven);
    Object sha = spec.get("sha256");
    if (!(sha instanceof String s) || !SHA256.matcher(s).matches()) {
      throw new Invalid(
          name, "spec.sha256", "expected 64 hexadecimal digits (the jar's SHA-256), got " + sha);
    }
    return new PluginBundleSpec(name, uri, s.toLowerCase(Locale.ROOT), generation);
  }

  private static URI httpUri(String name, String field, Object value) throws Invalid {
    URI uri;
    try {
      uri = URI.create(String.valueOf(value));
    } catch (IllegalArgumentException e) {
      throw new Invalid(name, field, "not a URL: " + e.getMessage());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw new Invalid(name, field, "expected an http or https URL, got " + value);
    }
    return uri;
  }

  private static URI mavenUri(String name, Map<String, Object> spec, Object maven) throws Invalid {
    String[] parts = String.valueOf(maven).split(":", -1);
    if (parts.length != 3 || !allCoordinateParts(parts)) {
      throw new Invalid(name, "spec.maven", "expected groupId:artifactId:version, got " + maven);
    }
    Object repository = spec.getOrDefault("repository", MAVEN_CENTRAL);
    String base = httpUri(name, "spec.repository", repository).toString();
    if (!base.endsWith("/")) {
      base = base + "/";
    }
    return URI.create(
        base
            + parts[0].replace('.', '/')
            + "/"
            + parts[1]
            + "/"
            + parts[2]
            + "/"
            + parts[1]
            + "-"
            + parts[2]
            + ".jar");
  }

  private static boolean allCoordinateParts(String[] parts) {
    for (String p : parts) {
      if (!COORDINATE_PART.matcher(p).matches()) {
        return false;
      }
    }
    return true;
  }
}
