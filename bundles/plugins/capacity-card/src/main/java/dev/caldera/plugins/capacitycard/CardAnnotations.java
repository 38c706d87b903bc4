package dev.caldera.plugins.capacitycard;

import dev.caldera.support.json.AnnotationJson;
import dev.caldera.support.json.AnnotationJson.RepeatedKeys;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The card annotations and their checked readings. Problems come back as text naming the
 * annotation, for an event on the annotated object; nothing here throws.
 */
final class CardAnnotations {

  /** On a queue: card name → how many of that card the queue may use. */
  static final String QUOTA = "volcano.sh/card.quota";

  /** On a pod group: card name (or {@code A|B}) → cards the job needs, for enqueue. */
  static final String REQUEST = "volcano.sh/card.request";

  /** On a pod: the card it uses, or alternatives {@code A|B|…} in order of preference. */
  static final String NAME = "volcano.sh/card.name";

  /** Separates the alternatives of a multi-model request. */
  static final String SEPARATOR = "|";

  /**
   * A reading of a JSON card annotation.
   *
   * @param counts the usable entries, in the order written
   * @param problems what was wrong, each naming the annotation; the rest is still used
   */
  record Counts(Map<String, Long> counts, List<String> problems) {}

  /**
   * The card names of a pod annotation.
   *
   * @param names the names in order, blanks dropped
   * @param problem what was wrong (an empty alternative), or null
   */
  record Names(List<String> names, String problem) {}

  private CardAnnotations() {}

  /** Reads a queue's {@value #QUOTA}: one card per key, whole non-negative counts. */
  static Counts quota(String text) {
    Parsed parsed = parse(text);
    if (parsed.problem() != null) {
      return new Counts(Map.of(), List.of(QUOTA + ": " + parsed.problem()));
    }
    Map<String, Long> out = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Long> e : parsed.counts().entrySet()) {
      if (e.getKey().contains(SEPARATOR)) {
        problems.add(
            QUOTA
                + ": \""
                + e.getKey()
                + "\" names several cards; a quota is given per card, entry ignored");
      } else {
        out.put(e.getKey().trim(), e.getValue());
      }
    }
    return new Counts(out, problems);
  }

  /** Reads a pod group's {@value #REQUEST}: keys may be {@code A|B}. */
  static Counts request(String text) {
    Parsed parsed = parse(text);
    if (parsed.problem() != null) {
      return new Counts(Map.of(), List.of(REQUEST + ": " + parsed.problem()));
    }
    List<String> problems = new ArrayList<>();
    Map<String, Long> out = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : parsed.counts().entrySet()) {
      Names names = names(e.getKey());
      if (names.problem() != null) {
        problems.add(REQUEST + ": " + names.problem() + ", entry ignored");
      } else {
        out.put(String.join(SEPARATOR, names.names()), e.getValue());
      }
    }
    return new Counts(out, problems);
  }

  /**
   * A card annotation's JSON: one flat object of card name → whole, non-negative count, e.g. {@code
   * {"NVIDIA-H200": 3, "NVIDIA-H800": 2}}.
   *
   * @param counts card name → count, in the order written; empty when the text is unusable
   * @param problem what is wrong, or null
   */
  private record Parsed(Map<String, Long> counts, String problem) {}

  /**
   * Reads {@code text} (blank is an empty object); anything else than whole non-negative counts
   * under distinct card names makes the whole text unusable, with the first problem.
   */
  private static Parsed parse(String text) {
    if (text == null || text.isBlank()) {
      return new Parsed(Map.of(), null);
    }
    Map<String, Object> object;
    try {
      object =
          AnnotationJson.readObject(
              text, "a JSON object such as {\"NVIDIA-H200\": 2}", "card", RepeatedKeys.REFUSED);
    } catch (AnnotationJson.Malformed e) {
      return new Parsed(Map.of(), e.getMessage());
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : object.entrySet()) {
      String count = "count of \"" + e.getKey() + "\"";
      if (!(e.getValue() instanceof BigDecimal n)) {
        return new Parsed(Map.of(), count + " is not a number");
      }
      if (n.signum() < 0) {
        return new Parsed(Map.of(), count + " is " + n + ", expected 0 or more");
      }
      try {
        counts.put(e.getKey(), n.longValueExact());
      } catch (ArithmeticException notWhole) {
        return new Parsed(Map.of(), count + " is " + n + ", expected a whole number");
      }
    }
    return new Parsed(counts, null);
  }

  /** Splits {@code A|B|…}; an empty alternative is a problem. */
  static Names names(String text) {
    if (text == null || text.isBlank()) {
      return new Names(List.of(), null);
    }
    List<String> names = new ArrayList<>();
    for (String part : text.split("\\|", -1)) {
      String name = part.trim();
      if (name.isEmpty()) {
        return new Names(List.of(), "\"" + text + "\" has an empty card name");
      }
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return new Names(names, null);
  }
}
