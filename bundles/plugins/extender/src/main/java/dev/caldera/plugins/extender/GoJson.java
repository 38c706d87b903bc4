package dev.caldera.plugins.extender;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON values the way Go's {@code encoding/json} decodes them into a struct: object keys
 * match field names exactly or case-insensitively (the last matching key wins), {@code null} leaves
 * the zero value, and a value of the wrong JSON type is an error.
 */
final class GoJson {

  private final String what;

  /**
   * @param what the response being decoded, for error messages
   */
  GoJson(String what) {
    this.what = what;
  }

  /**
   * The top-level object; a JSON {@code null} decodes as an empty object, as Go leaves the struct
   * untouched.
   */
  JsonNode object(JsonNode root) throws ExtenderException {
    if (root.isNull()) {
      return root;
    }
    if (!root.isObject()) {
      throw mismatch("", root, "an object");
    }
    return root;
  }

  /** The value of field {@code name}, or null when absent or JSON null. */
  JsonNode field(JsonNode object, String name) {
    if (object == null || !object.isObject()) {
      return null;
    }
    JsonNode found = null;
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        found = e.getValue();
      }
    }
    return found == null || found.isNull() ? null : found;
  }

  /** A Go {@code string} field; "" when absent. */
  String string(JsonNode object, String name) throws ExtenderException {
    JsonNode v = field(object, name);
    if (v == null) {
      return "";
    }
    if (!v.isTextual()) {
      throw mismatch(name, v, "a string");
    }
    return v.textValue();
  }

  /** A Go {@code int} field; 0 when absent. Fractions and exponents are refused, as in Go. */
  long integer(JsonNode object, String name) throws ExtenderException {
    JsonNode v = field(object, name);
    if (v == null) {
      return 0;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw mismatch(name, v, "an integer");
    }
    return v.longValue();
  }

  /** A Go {@code bool} field; false when absent. */
  boolean bool(JsonNode object, String name) throws ExtenderException {
    JsonNode v = field(object, name);
    if (v == null) {
      return false;
    }
    if (!v.isBoolean()) {
      throw mismatch(name, v, "true or false");
    }
    return v.booleanValue();
  }

  /** A Go {@code map[string]float64} field; null when absent or JSON null. */
  Map<String, Double> numberMap(JsonNode object, String name) throws ExtenderException {
    JsonNode v = field(object, name);
    if (v == null) {
      return null;
    }
    if (!v.isObject()) {
      throw mismatch(name, v, "an object of numbers");
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      JsonNode n = e.getValue();
      if (n.isNull()) {
        out.put(e.getKey(), 0.0);
      } else if (n.isNumber()) {
        out.put(e.getKey(), n.doubleValue());
      } else {
        throw mismatch(name + "." + e.getKey(), n, "a number");
      }
    }
    return out;
  }

  /** The elements of a Go slice field that are objects; empty when absent. */
  List<JsonNode> objects(JsonNode object, String name) throws ExtenderException {
    JsonNode v = field(object, name);
    List<JsonNode> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    if (!v.isArray()) {
      throw mismatch(name, v, "an array");
    }
    for (JsonNode element : v) {
      if (element.isNull()) {
        continue;
      }
      if (!element.isObject()) {
        throw mismatch(name + "[]", element, "an object");
      }
      out.add(element);
    }
    return out;
  }

  private ExtenderException mismatch(String field, JsonNode value, String expected) {
    return new ExtenderException(
        what
            + (field.isEmpty() ? "" : "." + field)
            + ": cannot decode JSON "
            + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
            + ", expected "
            + expected);
  }
}
