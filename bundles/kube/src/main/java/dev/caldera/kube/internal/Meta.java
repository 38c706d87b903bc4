package dev.caldera.kube.internal;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.Quantity;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Converts the parts every kind shares: metadata, times, quantities, selectors. */
final class Meta {

  private Meta() {}

  /** Object metadata; a cluster-scoped object has an empty namespace. */
  static ObjectMeta meta(io.fabric8.kubernetes.api.model.ObjectMeta m) {
    List<OwnerReference> owners = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.OwnerReference r : list(m.getOwnerReferences())) {
      owners.add(
          new OwnerReference(
              r.getApiVersion(),
              r.getKind(),
              r.getName(),
              r.getUid(),
              Boolean.TRUE.equals(r.getController())));
    }
    return new ObjectMeta(
        m.getName(),
        m.getNamespace(),
        m.getUid(),
        time(m.getCreationTimestamp()),
        time(m.getDeletionTimestamp()),
        withoutNulls(m.getLabels()),
        withoutNulls(m.getAnnotations()),
        owners);
  }

  /**
   * The map without entries whose value is null: the API server never stores one, but a key written
   * null through a merge patch is kept so by fabric8's mock server, and one such entry must not
   * make the object unreadable.
   */
  static Map<String, String> withoutNulls(Map<String, String> in) {
    if (in == null || !in.containsValue(null)) {
      return in;
    }
    Map<String, String> out = new LinkedHashMap<>(in);
    out.values().removeIf(Objects::isNull);
    return out;
  }

  /** The list, or an empty one for null (a field written as null in JSON). */
  static <T> List<T> list(List<T> in) {
    return in == null ? List.of() : in;
  }

  /** An RFC 3339 time (seconds or micro-seconds); null when absent or unreadable. */
  static Instant time(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    Instant utcSeconds = utcSeconds(text);
    if (utcSeconds != null) {
      return utcSeconds;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * {@code 2026-11-24T20:34:15Z}, the form the API server writes every timestamp in, read without a
   * formatter (every pod and watch event carries one; the formatter was a visible share of the
   * watch threads' time); null for any other form.
   */
  private static Instant utcSeconds(String text) {
    if (text.length() != 20
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || text.charAt(19) != 'Z') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 7);
    int day = digits(text, 8, 10);
    int hour = digits(text, 11, 13);
    int minute = digits(text, 14, 16);
    int second = digits(text, 17, 19);
    if (Math.min(Math.min(year, hour), Math.min(minute, second)) < 0
        || month < 1
        || month > 12
        || day < 1
        || hour > 23
        || minute > 59
        || second > 59) {
      return null;
    }
    if (day > YearMonth.of(year, month).lengthOfMonth()) {
      return null;
    }
    long days = LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(days * 86_400 + hour * 3_600 + minute * 60 + second);
  }

  /** The decimal number in {@code text[from, to)}, or -1 if a character is not a digit. */
  private static int digits(String text, int from, int to) {
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /** Quantities keyed as written; null when the map is absent (not the same as empty). */
  static Map<String, Quantity> quantities(
      Map<String, io.fabric8.kubernetes.api.model.Quantity> in) {
    if (in == null) {
      return null;
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    in.forEach(
        (k, v) -> {
          Quantity q = quantity(v == null ? null : v.toString());
          if (q != null) {
            out.put(k, q);
          }
        });
    return out;
  }

  /** A quantity from its text; null when unreadable (the API server validated it already). */
  static Quantity quantity(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return Quantity.parse(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** A label selector; null when absent (which selects nothing). */
  static LabelSelector selector(io.fabric8.kubernetes.api.model.LabelSelector s) {
    if (s == null) {
      return null;
    }
    List<LabelSelectorRequirement> expressions = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.LabelSelectorRequirement r :
        list(s.getMatchExpressions())) {
      expressions.add(new LabelSelectorRequirement(r.getKey(), r.getOperator(), r.getValues()));
    }
    return new LabelSelector(s.getMatchLabels(), expressions);
  }

  /** Pod conditions. */
  static List<PodCondition> podConditions(List<io.fabric8.kubernetes.api.model.PodCondition> in) {
    List<PodCondition> out = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.PodCondition c : list(in)) {
      out.add(
          new PodCondition(
              c.getType(),
              c.getStatus(),
              c.getReason(),
              c.getMessage(),
              time(c.getLastTransitionTime())));
    }
    return out;
  }
}
