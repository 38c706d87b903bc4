package dev.caldera.kube.internal;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.Quantity;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        m.getLabels(),
        m.getAnnotations(),
        owners);
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
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
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
