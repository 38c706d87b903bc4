package dev.caldera.support.placement;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.placement.NodeSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parser of node selection into {@link NodeSelection}s ({@code
 * nodeaffinity.GetRequiredNodeAffinity} and {@code NodeSelectorTerms}), and the one implementation
 * of that view. As upstream, an empty term selects nothing, and a term that does not parse (unknown
 * operator, wrong number of values, a non-integer for Gt/Lt) never matches while the other terms
 * still count; {@link Problems} names each.
 */
public final class NodeSelections implements NodeSelection {

  /** The only node field a selector can name. */
  public static final String NAME_FIELD = "metadata.name";

  /** Selects every node. */
  public static final NodeSelections ANY = new NodeSelections(new String[0], new String[0], null);

  private final String[] selectorKeys;
  private final String[] selectorValues;

  /** Null when there are no terms to satisfy; else the parsed terms (may be empty). */
  private final Term[] terms;

  private NodeSelections(String[] selectorKeys, String[] selectorValues, Term[] terms) {
    this.selectorKeys = selectorKeys;
    this.selectorValues = selectorValues;
    this.terms = terms;
  }

  /**
   * The selection of a {@code nodeSelector} map and required terms (null: none required); {@link
   * #ANY} when both are absent. Problems are reported under {@code field}.
   */
  static NodeSelections parse(
      Map<String, String> nodeSelector,
      List<NodeSelectorTerm> required,
      String field,
      Problems problems) {
    if (nodeSelector.isEmpty() && required == null) {
      return ANY;
    }
    String[] keys = new String[nodeSelector.size()];
    String[] values = new String[nodeSelector.size()];
    int i = 0;
    for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
      keys[i] = e.getKey();
      values[i] = e.getValue();
      i++;
    }
    return new NodeSelections(
        keys, values, required == null ? null : parseTerms(required, field, problems));
  }

  /**
   * The selection of node selector terms alone (ORed), as a PersistentVolume's node affinity or a
   * StorageClass's allowed topologies are read: no term selects no node.
   */
  public static NodeSelection ofTerms(List<NodeSelectorTerm> terms) {
    return new NodeSelections(new String[0], new String[0], parseTerms(terms, "", null));
  }

  /** One term alone, as a preferred node affinity term is read; problems under {@code field}. */
  static NodeSelections ofTerm(NodeSelectorTerm term, String field, Problems problems) {
    return new NodeSelections(
        new String[0], new String[0], parseTerms(List.of(term), field, problems, false));
  }

  private static Term[] parseTerms(List<NodeSelectorTerm> terms, String field, Problems problems) {
    return parseTerms(terms, field + "nodeSelectorTerms", problems, true);
  }

  private static Term[] parseTerms(
      List<NodeSelectorTerm> terms, String field, Problems problems, boolean indexed) {
    List<Term> parsed = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      NodeSelectorTerm t = terms.get(i);
      if (t == null || (t.matchExpressions().isEmpty() && t.matchFields().isEmpty())) {
        continue;
      }
      parsed.add(Term.parse(t, indexed ? field + "[" + i + "]" : field, problems));
    }
    return parsed.toArray(new Term[0]);
  }

  @Override
  public boolean isEmpty() {
    return this == ANY;
  }

  @Override
  public boolean matches(Node node) {
    return this == ANY || matches(node.metadata().labels(), node.name());
  }

  @Override
  public boolean matches(Map<String, String> labels, String nodeName) {
    if (this == ANY) {
      return true;
    }
    for (int i = 0; i < selectorKeys.length; i++) {
      if (!selectorValues[i].equals(labels.get(selectorKeys[i]))) {
        return false;
      }
    }
    if (terms == null) {
      return true;
    }
    for (Term term : terms) {
      if (term.matches(labels, nodeName)) {
        return true;
      }
    }
    return false;
  }

  /** One parsed node selector term. */
  private record Term(Requirement[] labels, Requirement[] fields, boolean valid) {

    static Term parse(NodeSelectorTerm t, String at, Problems problems) {
      List<Requirement> labels = new ArrayList<>();
      boolean valid = true;
      List<NodeSelectorRequirement> expressions = t.matchExpressions();
      for (int i = 0; i < expressions.size(); i++) {
        Requirement parsed =
            Requirement.label(expressions.get(i), at + ".matchExpressions[" + i + "]", problems);
        valid &= parsed != null;
        labels.add(parsed);
      }
      List<Requirement> fields = new ArrayList<>();
      List<NodeSelectorRequirement> matchFields = t.matchFields();
      for (int i = 0; i < matchFields.size(); i++) {
        Requirement parsed =
            Requirement.field(matchFields.get(i), at + ".matchFields[" + i + "]", problems);
        valid &= parsed != null;
        fields.add(parsed);
      }
      if (!valid) {
        return new Term(null, null, false);
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

  /** One requirement; the value matched is null when the label is absent. */
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

    /** A label requirement, or null (reported) when upstream would fail to parse it. */
    static Requirement label(NodeSelectorRequirement r, String at, Problems problems) {
      List<String> values = r.values();
      String operator = r.operator() == null ? "" : r.operator();
      if (r.key() == null || r.key().isEmpty()) {
        report(problems, at + ".key", "a label key", r.key());
        return null;
      }
      Op op;
      switch (operator) {
        case "In", "NotIn" -> {
          if (values.isEmpty()) {
            report(problems, at + ".values", "at least one value for " + operator, null);
            return null;
          }
          op = operator.equals("In") ? Op.IN : Op.NOT_IN;
        }
        case "Exists", "DoesNotExist" -> {
          if (!values.isEmpty()) {
            report(problems, at + ".values", "no values for " + operator, values);
            return null;
          }
          op = operator.equals("Exists") ? Op.EXISTS : Op.DOES_NOT_EXIST;
        }
        case "Gt", "Lt" -> {
          Long bound = values.size() == 1 ? parseLong(values.get(0)) : null;
          if (bound == null) {
            report(problems, at + ".values", "one integer for " + operator, values);
            return null;
          }
          return new Requirement(r.key(), operator.equals("Gt") ? Op.GT : Op.LT, null, bound);
        }
        default -> {
          report(
              problems,
              at + ".operator",
              "one of In, NotIn, Exists, DoesNotExist, Gt, Lt",
              r.operator());
          return null;
        }
      }
      return new Requirement(r.key(), op, Set.copyOf(values), 0);
    }

    /** A field requirement: In or NotIn with exactly one value, else null (reported). */
    static Requirement field(NodeSelectorRequirement r, String at, Problems problems) {
      if (!NAME_FIELD.equals(r.key())) {
        report(problems, at + ".key", NAME_FIELD, r.key());
      }
      if (r.values().size() != 1) {
        report(problems, at + ".values", "exactly one node name", r.values());
        return null;
      }
      String key = r.key() == null ? "" : r.key();
      String operator = r.operator() == null ? "" : r.operator();
      return switch (operator) {
        case "In" -> new Requirement(key, Op.IN, Set.copyOf(r.values()), 0);
        case "NotIn" -> new Requirement(key, Op.NOT_IN, Set.copyOf(r.values()), 0);
        default -> {
          report(problems, at + ".operator", "In or NotIn", r.operator());
          yield null;
        }
      };
    }

    private static void report(Problems problems, String field, String expected, Object got) {
      if (problems != null) {
        problems.add(field, expected, got);
      }
    }

    private boolean compares(String value) {
      Long v = value == null ? null : parseLong(value);
      if (v == null) {
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

  /** Go's {@code strconv.ParseInt(s, 10, 64)}: an optional sign and decimal digits, else null. */
  static Long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
