package dev.caldera.plugins.overcommit;

import dev.caldera.api.PluginArguments;

/**
 * The {@code overcommit} plugin's arguments.
 *
 * @param factor {@code overcommit-factor}: how many times the cluster's allocatable the enqueue
 *     action may promise to admitted jobs; at least 1
 */
record OvercommitArguments(double factor) {

  static final String FACTOR = "overcommit-factor";
  static final double DEFAULT_FACTOR = 1.2;

  OvercommitArguments {
    if (!(factor >= 1.0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("overcommit factor must be a finite number >= 1.0");
    }
  }

  /** Volcano's defaults. */
  static OvercommitArguments defaults() {
    return new OvercommitArguments(DEFAULT_FACTOR);
  }

  /**
   * Reads the arguments. Volcano replaces a factor below 1.0 with the default and logs it; here it
   * is refused.
   */
  static OvercommitArguments from(PluginArguments arguments) {
    double factor = arguments.getDouble(FACTOR, DEFAULT_FACTOR);
    if (!(factor >= 1.0) || Double.isInfinite(factor)) {
      throw arguments.wrong(
          FACTOR, arguments.values().get(FACTOR), "a finite number of at least 1.0, such as 1.2");
    }
    return new OvercommitArguments(factor);
  }
}
