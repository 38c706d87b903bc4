package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.resource.Quantity;
import dev.caldera.sim.ScenarioException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed reads from a YAML tree, each naming the file, the object and the field path when the value
 * has the wrong shape. Absent and null values read as null (or empty for lists).
 */
public final class Fields {

  private final String file;
  private final String object;

  /**
   * @param object what is being read, e.g. {@code Pod ns1/p1}; null for the file's top level
   */
  public Fields(String file, String object) {
    this.file = file;
    this.object = object;
  }

  /** The same file, another object. */
  public Fields forObject(String otherObject) {
    return new Fields(file, otherObject);
  }

  /** An error about {@code path} of this object. */
  public ScenarioException error(String path, String what) {
    StringBuilder sb = new StringBuilder(file).append(": ");
    if (object != null) {
      sb.append(object).append(": ");
    }
    if (!path.isEmpty()) {
      sb.append(path).append(": ");
    }
    return new ScenarioException(sb.append(what).toString());
  }

  /** Whether {@code node} holds nothing. */
  public static boolean absent(JsonNode node) {
    return node == null || node.isMissingNode() || node.isNull();
  }

  /** A scalar as text; null when absent. */
  public String text(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return null;
    }
    if (!node.isValueNode()) {
      throw error(path, "expected a string, got " + describe(node));
    }
    return node.asText();
  }

  /** A scalar as text that must be present and non-empty. */
  public String requiredText(JsonNode node, String path) throws ScenarioException {
    String s = text(node, path);
    if (s == null || s.isEmpty()) {
      throw error(path, "missing (expected a non-empty string)");
    }
    return s;
  }

  /** One of {@code allowed} (Kubernetes' enumerations are case-sensitive); null when absent. */
  public String oneOf(JsonNode node, String path, List<String> allowed) throws ScenarioException {
    String s = text(node, path);
    if (s != null && !allowed.contains(s)) {
      throw error(path, "\"" + s + "\" is not one of " + String.join(", ", allowed));
    }
    return s;
  }

  /**
   * Kubernetes' int-or-percent ({@code minAvailable: 2}, {@code maxUnavailable: "25%"}): an integer
   * of at least 0, or a string of digits followed by {@code %} of at most 100%; null when absent.
   */
  public String intOrPercent(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToInt() && node.asInt() >= 0) {
      return node.asText();
    }
    if (node.isTextual() && node.asText().matches("[0-9]{1,3}%")) {
      int percent = Integer.parseInt(node.asText().substring(0, node.asText().length() - 1));
      if (percent <= 100) {
        return node.asText();
      }
    }
    throw error(
        path,
        "expected an integer of at least 0 or a percentage such as \"25%\" (at most 100%), got "
            + describe(node));
  }

  /** An integer (a YAML number, or a string of digits); null when absent. */
  public Integer integer(JsonNode node, String path) throws ScenarioException {
    Long v = longValue(node, path);
    if (v == null) {
      return null;
    }
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw error(path, "expected a 32-bit integer, got " + v);
    }
    return v.intValue();
  }

  /** A 64-bit integer; null when absent. */
  public Long longValue(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.asLong();
    }
    if (node.isTextual()) {
      try {
        return Long.parseLong(node.asText().trim());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error(path, "expected an integer, got " + describe(node));
  }

  /** A number; null when absent. */
  public Double number(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return null;
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isTextual()) {
      try {
        return Double.parseDouble(node.asText().trim());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw error(path, "expected a number, got " + describe(node));
  }

  /** A boolean (also the strings true and false); null when absent. */
  public Boolean bool(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return null;
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    if (node.isTextual() && (node.asText().equals("true") || node.asText().equals("false"))) {
      return Boolean.parseBoolean(node.asText());
    }
    throw error(path, "expected true or false, got " + describe(node));
  }

  /** An RFC 3339 time; null when absent. */
  public Instant time(JsonNode node, String path) throws ScenarioException {
    String s = text(node, path);
    if (s == null || s.isEmpty()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(s.trim()).toInstant();
    } catch (DateTimeParseException e) {
      throw error(
          path, "expected an RFC 3339 time such as 2026-01-01T00:00:00Z, got \"" + s + "\"");
    }
  }

  /** A mapping; null when absent. */
  public JsonNode object(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return null;
    }
    if (!node.isObject()) {
      throw error(path, "expected a mapping, got " + describe(node));
    }
    return node;
  }

  /** A sequence's elements; empty when absent. */
  public List<JsonNode> list(JsonNode node, String path) throws ScenarioException {
    if (absent(node)) {
      return List.of();
    }
    if (!node.isArray()) {
      throw error(path, "expected a list, got " + describe(node));
    }
    List<JsonNode> out = new ArrayList<>(node.size());
    node.forEach(out::add);
    return out;
  }

  /** A list of strings; empty when absent. */
  public List<String> stringList(JsonNode node, String path) throws ScenarioException {
    List<String> out = new ArrayList<>();
    List<JsonNode> items = list(node, path);
    for (int i = 0; i < items.size(); i++) {
      String s = text(items.get(i), path + "[" + i + "]");
      if (s == null) {
        throw error(path + "[" + i + "]", "expected a string, got null");
      }
      out.add(s);
    }
    return out;
  }

  /** A string → string mapping in file order; empty when absent. */
  public Map<String, String> stringMap(JsonNode node, String path) throws ScenarioException {
    JsonNode obj = object(node, path);
    if (obj == null) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : obj.properties()) {
      String v = text(e.getValue(), path + "." + e.getKey());
      out.put(e.getKey(), v == null ? "" : v);
    }
    return Collections.unmodifiableMap(out);
  }

  /** A resource list (name → quantity) in file order; null when absent. */
  public Map<String, Quantity> quantities(JsonNode node, String path) throws ScenarioException {
    JsonNode obj = object(node, path);
    if (obj == null) {
      return null;
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : obj.properties()) {
      out.put(e.getKey(), quantity(e.getValue(), path + "." + e.getKey()));
    }
    return Collections.unmodifiableMap(out);
  }

  /** One quantity, which must be present. */
  public Quantity quantity(JsonNode node, String path) throws ScenarioException {
    if (absent(node) || !node.isValueNode() || node.isBoolean()) {
      throw error(
          path,
          (absent(node) ? "missing" : describe(node))
              + " is not a quantity (expected e.g. 500m, 2, 1.5 or 4Gi)");
    }
    String text = node.asText();
    try {
      return Quantity.parse(text);
    } catch (IllegalArgumentException e) {
      throw error(
          path,
          "\"" + Quantity.shown(text) + "\" is not a quantity (expected e.g. 500m, 2, 1.5 or 4Gi)");
    }
  }

  /** Rejects any key of {@code node} not in {@code allowed}. */
  public void onlyKeys(JsonNode node, String path, List<String> allowed) throws ScenarioException {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String key = e.getKey();
      if (!allowed.contains(key)) {
        String where = path.isEmpty() ? key : path + "." + key;
        throw error(where, "unknown field (expected one of " + String.join(", ", allowed) + ")");
      }
    }
  }

  /** A short description of a value for messages. */
  public static String describe(JsonNode node) {
    if (absent(node)) {
      return "nothing";
    }
    if (node.isObject()) {
      return "a mapping";
    }
    if (node.isArray()) {
      return "a list";
    }
    if (node.isTextual()) {
      return "\"" + node.asText() + "\"";
    }
    return node.asText();
  }
}
