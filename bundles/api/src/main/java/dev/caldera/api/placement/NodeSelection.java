package dev.caldera.api.placement;

import dev.caldera.api.model.Node;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Parsed node selection ({@code nodeaffinity.GetRequiredNodeAffinity} and {@code
 * NodeSelectorTerms}): every {@code spec.nodeSelector} label must match and, when terms are given,
 * at least one term (a term ANDs its label expressions and its {@code metadata.name} field
 * expressions). As upstream, an empty term selects nothing, and a term that does not parse (unknown
 * operator, wrong number of values, a non-integer for Gt/Lt) never matches while the other terms
 * still count. Field requirements are matched against the field set {@code {metadata.name:
 * <node>}}, so another key reads as the empty string.
 *
 * <p>Immutable; safe to share between threads. Parsed by the api-support bundle ({@code
 * NodeSelections}).
 */
@ProviderType
public interface NodeSelection {

  /** Whether this selects every node (no node selector and no required terms). */
  boolean isEmpty();

  /** Whether {@code node} is selected. */
  boolean matches(Node node);

  /** Whether a node with these labels and this name is selected. */
  boolean matches(Map<String, String> labels, String nodeName);
}
