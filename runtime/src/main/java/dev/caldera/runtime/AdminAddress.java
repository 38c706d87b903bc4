package dev.caldera.runtime;

import picocli.CommandLine.Option;

/**
 * {@code --admin URL}: where the commands that ask a running scheduler ({@code why}, {@code
 * queues}, {@code snapshot}) find its admin API. One option for all of them, so they agree on its
 * name, its environment variable and its default.
 */
final class AdminAddress {

  /** The admin address when neither {@code --admin} nor {@code CALDERA_ADMIN_URL} says. */
  static final String DEFAULT_URL = "http://127.0.0.1:8080";

  @Option(
      names = "--admin",
      paramLabel = "URL",
      description =
          "The scheduler's admin API (default: $CALDERA_ADMIN_URL, else " + DEFAULT_URL + ").")
  String url;

  /** The address to use, without a trailing slash. */
  String base() {
    String u = url != null ? url : System.getenv("CALDERA_ADMIN_URL");
    if (u == null || u.isBlank()) {
      u = DEFAULT_URL;
    }
    return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
  }
}
