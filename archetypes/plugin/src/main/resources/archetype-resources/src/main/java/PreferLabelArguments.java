package ${package};

import dev.caldera.api.PluginArguments;

/**
 * The {@value PreferLabelPlugin#NAME} plugin's arguments (the conf entry's {@code arguments:}).
 *
 * @param label {@value #LABEL}: the node label key, default {@value #DEFAULT_LABEL}
 * @param value {@value #VALUE}: the label value that is preferred, default {@code "true"}
 * @param weight {@value #WEIGHT}: the score of a preferred node, 0 to 100, default 10; 0
 *     registers nothing
 */
public record PreferLabelArguments(String label, String value, int weight) {

  public static final String LABEL = "label";
  public static final String VALUE = "value";
  public static final String WEIGHT = "weight";
  public static final String DEFAULT_LABEL = "example.com/preferred";

  /**
   * Reads and validates the arguments; unknown keys are ignored.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the key whose value is wrong: the
   *     session opens without scheduling, saying why
   */
  public static PreferLabelArguments from(PluginArguments args) {
    String label = args.getString(LABEL, DEFAULT_LABEL);
    if (label.isBlank()) {
      throw args.wrong(LABEL, label, "a node label key");
    }
    String value = args.getString(VALUE, "true");
    int weight = args.getInt(WEIGHT, 10);
    if (weight < 0 || weight > 100) {
      throw args.wrong(WEIGHT, weight, "a weight from 0 to 100");
    }
    return new PreferLabelArguments(label, value, weight);
  }
}
