package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * Node selector matching as in {@code k8s.io/component-helpers/scheduling/corev1/nodeaffinity}. A
 * requirement that Kubernetes would reject (e.g. {@code In} without values, {@code Gt} with a
 * non-integer) makes its term match nothing.
 */
final class NodeSelectors {

  private static final String NODE_NAME_FIELD = "metadata.name";

  private NodeSelectors() {}

  /**
   * Whether {@code node} satisfies the pod's {@code nodeSelector} and required node affinity
   * ({@code GetRequiredNodeAffinity(pod).Match(node)}).
   */
  static boolean requiredMatches(Pod pod, Node node) {
    Map<String, String> labels = node.metadata().labels();
    for (Map.Entry<String, String> e : pod.nodeSelector().entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    NodeAffinity affinity = pod.nodeAffinity();
    if (affinity == null || affinity.required() == null) {
      return true;
    }
    for (NodeSelectorTerm term : affinity.required()) {
      if (termMatches(term, labels, node.name())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a term has neither expressions nor fields (such a term matches nothing). */
  static boolean isEmpty(NodeSelectorTerm term) {
    return term.matchExpressions().isEmpty() && term.matchFields().isEmpty();
  }

  /** Whether every expression and field of {@code term} holds; an empty term matches nothing. */
  static boolean termMatches(NodeSelectorTerm term, Map<String, String> labels, String nodeName) {
    if (isEmpty(term)) {
      return false;
    }
    for (NodeSelectorRequirement r : term.matchExpressions()) {
      if (!labelMatches(r, labels)) {
        return false;
      }
    }
    for (NodeSelectorRequirement r : term.matchFields()) {
      if (!fieldMatches(r, nodeName)) {
        return false;
      }
    }
    return true;
  }

  private static boolean labelMatches(NodeSelectorRequirement r, Map<String, String> labels) {
    String value = labels.get(r.key());
    List<String> values = r.values();
    switch (r.operator()) {
      case "In":
        return !values.isEmpty() && value != null && values.contains(value);
      case "NotIn":
        return !values.isEmpty() && (value == null || !values.contains(value));
      case "Exists":
        return values.isEmpty() && labels.containsKey(r.key());
      case "DoesNotExist":
        return values.isEmpty() && !labels.containsKey(r.key());
      case "Gt":
      case "Lt":
        {
          if (values.size() != 1 || value == null) {
            return false;
          }
          try {
            long bound = Long.parseLong(values.get(0));
            long actual = Long.parseLong(value);
            return "Gt".equals(r.operator()) ? actual > bound : actual < bound;
          } catch (NumberFormatException e) {
            return false;
          }
        }
      default:
        return false;
    }
  }

  private static boolean fieldMatches(NodeSelectorRequirement r, String nodeName) {
    if (!NODE_NAME_FIELD.equals(r.key()) || r.values().size() != 1) {
      return false;
    }
    return switch (r.operator()) {
      case "In" -> nodeName.equals(r.values().get(0));
      case "NotIn" -> !nodeName.equals(r.values().get(0));
      default -> false;
    };
  }
}
