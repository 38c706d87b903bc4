package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.PluginArgumentException;
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
      Map<String, Integer> out = new WeightsParser(text).parse();
      for (String name : out.keySet()) {
        ResourceStrategies.checkPattern("", "", name);
      }
      return out;
    } catch (IllegalArgumentException | PluginArgumentException e) {
      return null;
    }
  }

  /** A strict reader of {@code {"name": int, ...}}. */
  private static final class WeightsParser {
    private final String s;
    private int pos;

    WeightsParser(String s) {
      this.s = s;
    }

    Map<String, Integer> parse() {
      Map<String, Integer> out = new LinkedHashMap<>();
      skipSpace();
      expect('{');
      skipSpace();
      if (peek() == '}') {
        pos++;
      } else {
        while (true) {
          skipSpace();
          String key = string();
          skipSpace();
          expect(':');
          skipSpace();
          out.put(key, integer());
          skipSpace();
          char c = next();
          if (c == '}') {
            break;
          }
          if (c != ',') {
            throw new IllegalArgumentException("expected , or } at " + (pos - 1));
          }
        }
      }
      skipSpace();
      if (pos != s.length()) {
        throw new IllegalArgumentException("trailing characters at " + pos);
      }
      return out;
    }

    private String string() {
      expect('"');
      StringBuilder sb = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return sb.toString();
        }
        if (c == '\\') {
          char e = next();
          switch (e) {
            case '"', '\\', '/' -> sb.append(e);
            case 'b' -> sb.append('\b');
            case 'f' -> sb.append('\f');
            case 'n' -> sb.append('\n');
            case 'r' -> sb.append('\r');
            case 't' -> sb.append('\t');
            case 'u' -> {
              if (pos + 4 > s.length()) {
                throw new IllegalArgumentException("short \\u escape");
              }
              sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
              pos += 4;
            }
            default -> throw new IllegalArgumentException("bad escape \\" + e);
          }
        } else if (c < 0x20) {
          throw new IllegalArgumentException("control character in string");
        } else {
          sb.append(c);
        }
      }
    }

    private int integer() {
      int start = pos;
      if (peek() == '-') {
        pos++;
      }
      while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
        pos++;
      }
      // Integer.parseInt refuses fractions and exponents, as Go's decoding into int does.
      return Integer.parseInt(s.substring(start, pos));
    }

    private void skipSpace() {
      while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
        pos++;
      }
    }

    private char peek() {
      if (pos >= s.length()) {
        throw new IllegalArgumentException("unexpected end");
      }
      return s.charAt(pos);
    }

    private char next() {
      char c = peek();
      pos++;
      return c;
    }

    private void expect(char c) {
      if (next() != c) {
        throw new IllegalArgumentException("expected " + c + " at " + (pos - 1));
      }
    }
  }
}
