package dev.caldera.framework.internal.actions;

import java.util.Locale;

/**
 * How allocate finds a task's node: every node evaluated for every task ({@link #FULL}), answers
 * reused across the tasks of one node-local key ({@link #INCREMENTAL}, the default; the same
 * decisions), or both, failing the session on the first difference ({@link #CHECK}, for tests).
 *
 * <p>Chosen by the allocate action's {@value ActionArguments#NODE_SCAN} argument; the system
 * property {@value #PROPERTY}, when set, wins (for test suites and {@code caldera bench}).
 */
enum NodeScan {
  FULL,
  INCREMENTAL,
  CHECK;

  /** The system property that overrides the conf. */
  static final String PROPERTY = "caldera.nodeScan";

  static NodeScan of(ActionArguments arguments) {
    String property = System.getProperty(PROPERTY);
    String value =
        property != null && !property.isBlank()
            ? property
            : arguments.getString(ActionArguments.NODE_SCAN, "incremental");
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "full" -> FULL;
      case "incremental" -> INCREMENTAL;
      case "check" -> CHECK;
      default ->
          throw arguments.wrong(ActionArguments.NODE_SCAN, value, "full, incremental or check");
    };
  }
}
