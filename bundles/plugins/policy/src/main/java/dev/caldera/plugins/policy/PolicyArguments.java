package dev.caldera.plugins.policy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code policy} plugin's arguments: {@code policies: [name, ...]}, the names after {@code
 * policy} in the {@code .policy} files whose rules this tier runs, in the order given; {@code
 * debug: true} records the deciding rule on the pods that reclaim spared or evicted.
 */
record PolicyArguments(List<String> policies, boolean debug) {

  static final String POLICIES = "policies";
  static final String DEBUG = "debug";

  PolicyArguments {
    policies = List.copyOf(policies);
  }

  /**
   * Reads {@code policies}: a list of names, or one string of comma-separated names.
   *
   * @throws PluginArgumentException when it is missing, empty or not a list of names
   */
  static PolicyArguments parse(PluginArguments arguments) {
    Object raw = arguments.values().get(POLICIES);
    String expected = "a list of policy names, e.g. [tidal]";
    if (raw == null) {
      throw new PluginArgumentException(
          POLICIES,
          "plugin "
              + arguments.plugin()
              + ": argument "
              + POLICIES
              + " is missing, expected "
              + expected);
    }
    List<String> names = new ArrayList<>();
    if (raw instanceof String s) {
      for (String part : s.split(",")) {
        names.add(part.trim());
      }
    } else if (raw instanceof List<?> list) {
      for (Object o : list) {
        if (!(o instanceof String s)) {
          throw arguments.wrong(POLICIES, raw, expected);
        }
        names.add(s.trim());
      }
    } else {
      throw arguments.wrong(POLICIES, raw, expected);
    }
    if (names.isEmpty() || names.stream().anyMatch(String::isEmpty)) {
      throw arguments.wrong(POLICIES, raw, expected);
    }
    return new PolicyArguments(names, arguments.getBoolean(DEBUG, false));
  }
}
