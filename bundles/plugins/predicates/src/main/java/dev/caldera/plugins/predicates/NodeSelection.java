package dev.caldera.plugins.predicates;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Pod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod's required node selection, parsed once ({@code nodeaffinity.GetRequiredNodeAffinity}):
 * every {@code spec.nodeSelector} label must match, and, when required node affinity is set, at
 * least one of its terms (a term ANDs its label expressions and its {@code metadata.name} field
 * expressions). As upstream, an empty term selects nothing and a term that does not parse (unknown
 * operator, wrong number of values, a non-integer for Gt/Lt) never matches while the other terms
 * still count.
 */
final class NodeSelection {

  /** The only node field a selector can name. */
  static final String NAME_FIELD = "metadata.name";

  private static final NodeSelection ANY = new NodeSelection(new String[0], new String[0], null);

  private final String[] selectorKeys;
  private final String[] selectorValues;

  /** Null when the pod has no required node affinity; else the parsed terms (may be empty). */
  private final Term[] terms;

  private NodeSelection(String[] selectorKeys, String[] selectorValues, Term[] terms) {
    this.selectorKeys = selectorKeys;
    this.selectorValues = selectorValues;
    this.terms = terms;
  }

  /** The selection of {@code pod}; {@link #isEmpty()} when it selects every node. */
  static NodeSelection of(Pod pod) {
    Map<String, String> selector = pod.nodeSelector();
    NodeAffinity affinity = pod.nodeAffinity();
    List<NodeSelectorTerm> required = affinity == null ? null : affinity.required();
    if (selector.isEmpty() && required == null) {
      return ANY;
    }
    String[] keys = new String[selector.size()];
    String[] values = new String[selector.size()];
    int i = 0;
    for (Map.Entry<String, String> e : selector.entrySet()) {
      keys[i] = e.getKey();
      values[i] = e.getValue();
      i++;
    }
    Term[] terms = null;
    if (required != null) {
      List<Term> parsed = new ArrayList<>();
      for (NodeSelectorTerm t : required) {
        if (!t.matchExpressions().isEmpty() || !t.matchFields().isEmpty()) {
          parsed.add(Term.parse(t));
        }
      }
      terms = parsed.toArray(new Term[0]);
    }
    return new NodeSelection(keys, values, terms);
  }

  /**
   * The selection of a list of node selector terms alone (ORed), as a PersistentVolume's node
   * affinity or a StorageClass's allowed topologies are read: no term selects no node.
   */
  static NodeSelection ofTerms(List<NodeSelectorTerm> required) {
    List<Term> parsed = new ArrayList<>();
    for (NodeSelectorTerm t : required) {
      if (!t.matchExpressions().isEmpty() || !t.matchFields().isEmpty()) {
        parsed.add(Term.parse(t));
      }
    }
    return new NodeSelection(new String[0], new String[0], parsed.toArray(new Term[0]));
  }

  /** Whether this selects every node (no node selector and no required node affinity). */
  boolean isEmpty() {
    return this == ANY;
  }

  /** Whether {@code node} is selected. */
  boolean matches(Node node) {
    if (this == ANY) {
      return true;
    }
    Map<String, String> labels = node.metadata().labels();
    for (int i = 0; i < selectorKeys.length; i++) {
      if (!selectorValues[i].equals(labels.get(selectorKeys[i]))) {
        return false;
      }
    }
    if (terms == null) {
      return true;
    }
    for (Term term : terms) {
      if (term.matches(labels, node.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the required terms restrict the pod to node names ({@code metadata.name In} fields in
   * every term) whose union is empty: upstream's PreFilter then rejects the pod outright.
   */
  static boolean namesConflict(Pod pod) {
    NodeAffinity affinity = pod.nodeAffinity();
    if (affinity == null || affinity.required() == null || affinity.required().isEmpty()) {
      return false;
    }
    Set<String> union = new HashSet<>();
    for (NodeSelectorTerm t : affinity.required()) {
      Set<String> termNames = null;
      for (NodeSelectorRequirement r : t.matchFields()) {
        if (NAME_FIELD.equals(r.key()) && "In".equals(r.operator())) {
          Set<String> names = new HashSet<>(r.values());
          if (termNames == null) {
            termNames = names;
          } else {
            termNames.retainAll(names);
          }
        }
      }
      if (termNames == null) {
        return false;
      }
      union.addAll(termNames);
    }
    return union.isEmpty();
  }

  /** One parsed node selector term. */
  private record Term(Requirement[] labels, Requirement[] fields, boolean valid) {

    static Term parse(NodeSelectorTerm t) {
      List<Requirement> labels = new ArrayList<>();
      for (NodeSelectorRequirement r : t.matchExpressions()) {
        Requirement parsed = Requirement.label(r);
        if (parsed == null) {
          return new Term(null, null, false);
        }
        labels.add(parsed);
      }
      List<Requirement> fields = new ArrayList<>();
      for (NodeSelectorRequirement r : t.matchFields()) {
        Requirement parsed = Requirement.field(r);
        if (parsed == null) {
          return new Term(null, null, false);
        }
        fields.add(parsed);
      }
      return new Term(labels.toArray(new Requirement[0]), fields.toArray(new Requirement[0]), true);
    }

    boolean matches(Map<String, String> nodeLabels, String nodeName) {
      if (!valid) {
        return false;
      }
      for (Requirement r : labels) {
        if (!r.matches(nodeLabels.get(r.key))) {
          return false;
        }
      }
      for (Requirement r : fields) {
        if (!r.matches(NAME_FIELD.equals(r.key) ? nodeName : "")) {
          return false;
        }
      }
      return true;
    }
  }

  /** One requirement; {@code value} is null when the label is absent. */
  private static final class Requirement {
    private final String key;
    private final Op op;
    private final Set<String> values;
    private final long bound;

    private Requirement(String key, Op op, Set<String> values, long bound) {
      this.key = key;
      this.op = op;
      this.values = values;
      this.bound = bound;
    }

    /** A label requirement, or null when upstream would fail to parse it. */
    static Requirement label(NodeSelectorRequirement r) {
      List<String> values = r.values();
      Op op;
      switch (r.operator()) {
        case "In", "NotIn" -> {
          if (values.isEmpty()) {
            return null;
          }
          op = r.operator().equals("In") ? Op.IN : Op.NOT_IN;
        }
        case "Exists", "DoesNotExist" -> {
          if (!values.isEmpty()) {
            return null;
          }
          op = r.operator().equals("Exists") ? Op.EXISTS : Op.DOES_NOT_EXIST;
        }
        case "Gt", "Lt" -> {
          if (values.size() != 1) {
            return null;
          }
          Long bound = parseLong(values.get(0));
          if (bound == null) {
            return null;
          }
          return new Requirement(r.key(), r.operator().equals("Gt") ? Op.GT : Op.LT, null, bound);
        }
        default -> {
          return null;
        }
      }
      return new Requirement(r.key(), op, Set.copyOf(values), 0);
    }

    /** A field requirement: In or NotIn with exactly one value, else null. */
    static Requirement field(NodeSelectorRequirement r) {
      if (r.values().size() != 1) {
        return null;
      }
      return switch (r.operator()) {
        case "In" -> new Requirement(r.key(), Op.IN, Set.copyOf(r.values()), 0);
        case "NotIn" -> new Requirement(r.key(), Op.NOT_IN, Set.copyOf(r.values()), 0);
        default -> null;
      };
    }

    private boolean compares(String value) {
      if (value == null) {
        return false;
      }
      long v;
      try {
        v = Long.parseLong(value);
      } catch (NumberFormatException e) {
        return false;
      }
      return op == Op.GT ? v > bound : v < bound;
    }

    boolean matches(String value) {
      return switch (op) {
        case IN -> value != null && values.contains(value);
        case NOT_IN -> value == null || !values.contains(value);
        case EXISTS -> value != null;
        case DOES_NOT_EXIST -> value == null;
        case GT, LT -> compares(value);
      };
    }
  }

  private enum Op {
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST,
    GT,
    LT
  }

  /** Go's {@code strconv.ParseInt(s, 10, 64)}: an optional sign and decimal digits. */
  static Long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
