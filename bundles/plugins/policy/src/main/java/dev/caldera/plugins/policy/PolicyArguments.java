package dev.caldera.plugins.policy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code policy} plugin's arguments: {@code policies: [name, ...]}, the names after {@code
 * policy} in the {@code .policy} files whose rules this tier runs, in the order given; an entry
 * {@code {name: NAME, audit: true}} runs that policy beside the others without deciding anything
 * (its disagreements are recorded); {@code debug: true} records the deciding rule on the pods that
 * reclaim spared or evicted.
 *
 * @param policies the enforced policies
 * @param audits the policies in audit mode
 */
record PolicyArguments(List<String> policies, List<String> audits, boolean debug) {

  static final String POLICIES = "policies";
  static final String DEBUG = "debug";

  static final String NAME = "name";
  static final String AUDIT = "audit";

  PolicyArguments {
    policies = List.copyOf(policies);
    audits = List.copyOf(audits);
  }

  /**
   * Reads {@code policies}: a list of names, or one string of comma-separated names.
   *
   * @throws PluginArgumentException when it is missing, empty or not a list of names
   */
  static PolicyArguments parse(PluginArguments arguments) {
    Object raw = arguments.values().get(POLICIES);
    String expected =
        "a list of policy names, e.g. [tidal], where an entry may be {name: NAME, audit: true}";
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
    List<String> audits = new ArrayList<>();
    if (raw instanceof String s) {
      for (String part : s.split(",")) {
        names.add(part.trim());
      }
    } else if (raw instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof String s) {
          names.add(s.trim());
        } else if (o instanceof Map<?, ?> entry
            && entry.get(NAME) instanceof String name
            && entry.keySet().stream().allMatch(k -> NAME.equals(k) || AUDIT.equals(k))
            && (entry.get(AUDIT) == null || entry.get(AUDIT) instanceof Boolean)) {
          (Boolean.TRUE.equals(entry.get(AUDIT)) ? audits : names).add(name.trim());
        } else {
          throw arguments.wrong(POLICIES, raw, expected);
        }
      }
    } else {
      throw arguments.wrong(POLICIES, raw, expected);
    }
    if (names.isEmpty()
        || names.stream().anyMatch(String::isEmpty)
        || audits.stream().anyMatch(String::isEmpty)) {
      throw arguments.wrong(POLICIES, raw, expected);
    }
    return new PolicyArguments(names, audits, arguments.getBoolean(DEBUG, false));
  }
}
