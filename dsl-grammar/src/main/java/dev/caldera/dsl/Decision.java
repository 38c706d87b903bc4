package dev.caldera.dsl;

import java.util.List;

/**
 * Why a policy decided as it did: the deciding rule and how each subject was classified.
 *
 * @param line the line of the deciding rule, or of {@code otherwise}
 * @param rule the deciding rule as the formatter prints it, e.g. {@code otherwise deny}
 * @param classes one line per subject and classifier, e.g. {@code reclaimer service = inference
 *     (from owner.kind, line 7)}
 */
public record Decision(boolean allowed, String file, int line, String rule, List<String> classes) {

  public Decision {
    classes = List.copyOf(classes);
  }

  /** {@code allow}/{@code deny}, {@code file:line} and the rule, then the classes indented. */
  public String describe() {
    StringBuilder out = new StringBuilder();
    out.append(allowed ? "allow" : "deny").append(" by ").append(file).append(':').append(line);
    out.append(": ").append(rule);
    for (String c : classes) {
      out.append("\n  ").append(c);
    }
    return out.toString();
  }
}
