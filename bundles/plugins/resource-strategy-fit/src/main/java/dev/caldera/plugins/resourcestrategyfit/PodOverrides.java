package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.support.json.AnnotationJson;
import dev.caldera.support.json.AnnotationJson.RepeatedKeys;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-pod overrides of the {@code resources} configuration, read from two pod annotations:
 *
 * <ul>
 *   <li>{@value #SCORING_TYPE}: {@code MostAllocated} or {@code LeastAllocated}, used for every
 *       resource scored for this pod;
 *   <li>{@value #WEIGHTS}: a JSON object from resource name (or {@code prefix*} pattern) to integer
 *       weight, e.g. {@code {"nvidia.com/gpu": 3, "cpu": 1}}, which replaces the configured set of
 *       scored resources for this pod. A resource named here keeps its configured type unless the
 *       scoring-type annotation gives one; a resource the conf does not know is LeastAllocated. A
 *       weight ≤ 0 becomes 1, as in the conf.
 * </ul>
 *
 * <p>Annotations are pod data, not plugin arguments: a value that cannot be read (an unknown type,
 * malformed JSON, a non-integer weight, an invalid pattern) is ignored and the pod is scored with
 * the configuration, as if the annotation were absent.
 */
final class PodOverrides {

  static final String SCORING_TYPE = "volcano.sh/resource-strategy-scoring-type";
  static final String WEIGHTS = "volcano.sh/resource-strategy-weight";

  private PodOverrides() {}

  /** The strategies to score a pod with: {@code global} unless its annotations override it. */
  static ResourceStrategies apply(ResourceStrategies global, Map<String, String> annotations) {
    String typeText = annotations.get(SCORING_TYPE);
    String weightsText = annotations.get(WEIGHTS);
    ScoringType type = typeText == null ? null : ScoringType.parse(typeText.trim());
    Map<String, Integer> weights = weightsText == null ? null : parseWeights(weightsText);
    if (weights != null && weights.isEmpty()) {
      weights = null;
    }
    if (type == null && weights == null) {
      return global;
    }
    Map<String, ResourceStrategy> out = new LinkedHashMap<>();
    if (weights != null) {
      for (Map.Entry<String, Integer> e : weights.entrySet()) {
        ResourceStrategy configured = global.lookup(e.getKey());
        ScoringType t =
            type != null
                ? type
                : configured != null ? configured.type() : ScoringType.LEAST_ALLOCATED;
        out.put(e.getKey(), new ResourceStrategy(t, e.getValue() <= 0 ? 1 : e.getValue()));
      }
    } else {
      for (Map.Entry<String, ResourceStrategy> e : global.byPattern().entrySet()) {
        out.put(e.getKey(), new ResourceStrategy(type, e.getValue().weight()));
      }
    }
    return new ResourceStrategies(out);
  }

  /**
   * Parses a flat JSON object of string keys and integer values; null if {@code text} is not one or
   * a key is not a valid resource name or pattern.
   */
  static Map<String, Integer> parseWeights(String text) {
    try {
      Map<String, Object> object =
          AnnotationJson.readObject(
              text, "a JSON object of integer weights", "resource", RepeatedKeys.LAST_WINS);
      Map<String, Integer> out = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : object.entrySet()) {
        ResourceStrategies.checkPattern("", "", e.getKey());
        // Written as an integer, as Go's decoding into int requires: no fraction, no exponent.
        if (!(e.getValue() instanceof BigDecimal n) || n.scale() != 0) {
          return null;
        }
        out.put(e.getKey(), n.intValueExact());
      }
      return out;
    } catch (IllegalArgumentException | PluginArgumentException | ArithmeticException e) {
      return null;
    }
  }
}
