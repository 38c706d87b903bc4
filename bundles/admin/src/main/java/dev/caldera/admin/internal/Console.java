package dev.caldera.admin.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The web console: a page, a script and a style sheet shipped in this bundle, served as they are.
 * The script reads the JSON API; nothing is fetched from elsewhere, and the page's content security
 * policy forbids it.
 */
final class Console {

  /** Where the console's script and style sheet are served. */
  static final String PREFIX = "/console/";

  private static final String RESOURCES = "/dev/caldera/admin/console/";

  /** Only this bundle's own code and the admin API; no inline script or style in the markup. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self';"
          + " base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  private static final Map<String, String> ASSETS =
      Map.of(
          "console.js", "text/javascript; charset=utf-8",
          "console.css", "text/css; charset=utf-8");

  private Console() {}

  /** Whether a request with this {@code Accept} header comes from a browser wanting a page. */
  static boolean wanted(String accept) {
    return accept != null && accept.contains("text/html");
  }

  /** The console's page. */
  static AdminServer.Response page() {
    return response("index.html", "text/html; charset=utf-8");
  }

  /** The script or style sheet {@code name}; empty for any other name. */
  static Optional<AdminServer.Response> asset(String name) {
    String type = ASSETS.get(name);
    return type == null ? Optional.empty() : Optional.of(response(name, type));
  }

  private static AdminServer.Response response(String name, String type) {
    return new AdminServer.Response(
        200,
        type,
        read(name),
        Map.of(
            "Content-Security-Policy", CONTENT_SECURITY_POLICY,
            "X-Content-Type-Options", "nosniff",
            "Cache-Control", "no-cache"));
  }

  private static byte[] read(String name) {
    try (InputStream in = Console.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("the admin bundle lacks its console resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
