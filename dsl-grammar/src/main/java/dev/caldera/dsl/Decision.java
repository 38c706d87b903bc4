package dev.caldera.dsl;

import java.util.List;

/**
 * Why a policy decided as it did: the deciding rule and how each subject was classified.
 *
 * @param line the line of the deciding rule, or of {@code otherwise}
 * @param rule the deciding rule as the formatter prints it, e.g. {@code otherwise deny}
 * @param classes one line per subject and classifier, e.g. {@code reclaimer service = inference
 *     (from owner.kind, line 7)}
 * @param reads every attribute a condition or classifier read while deciding, with the value it
 *     read, in the order read, e.g. {@code reclaimer owner.kind = "Deployment"} or {@code
 *     reclaimer.queue.allocated = cpu 3, memory 8Gi}; empty where the policy does not record them
 */
public record Decision(
    boolean allowed, String file, int line, String rule, List<String> classes, List<String> reads) {

  public Decision {
    classes = List.copyOf(classes);
    reads = reads == null ? List.of() : List.copyOf(reads);
  }

  /** A decision without the attribute values read. */
  public Decision(boolean allowed, String file, int line, String rule, List<String> classes) {
    this(allowed, file, line, rule, classes, List.of());
  }

  /**
   * {@code allow}/{@code deny}, {@code file:line} and the rule, then the classes indented, then
   * each attribute read with its value.
   */
  public String describe() {
    StringBuilder out = new StringBuilder();
    out.append(allowed ? "allow" : "deny").append(" by ").append(file).append(':').append(line);
    out.append(": ").append(rule);
    for (String c : classes) {
      out.append("\n  ").append(c);
    }
    if (!reads.isEmpty()) {
      out.append("\n  read:");
      for (String r : reads) {
        out.append("\n    ").append(r);
      }
    }
    return out.toString();
  }
}
