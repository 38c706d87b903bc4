package dev.caldera.api.placement;

import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A parsed Kubernetes label selector ({@code labels.Selector}): a conjunction of requirements. The
 * nothing selector (what a null selector converts to) matches no label set; a selector without
 * requirements matches every set and {@link #isEmpty() is empty}. A requirement Kubernetes would
 * reject (unknown operator; In or NotIn without values; Exists or DoesNotExist with values) keeps
 * the meaning it had before parsing: an unknown operator matches nothing, In without values matches
 * nothing, NotIn without values matches everything, Exists and DoesNotExist ignore values.
 *
 * <p>Selectors are equal when they have the same requirements in the same order. Immutable; safe to
 * share between threads. Parsed by the api-support bundle ({@code LabelSelectors}).
 */
@ProviderType
public interface Selector {

  /** Whether {@code labels} satisfy every requirement; never for the nothing selector. */
  boolean matches(Map<String, String> labels);

  /** {@code Selector.Empty()}: no requirements, and not the nothing selector. */
  boolean isEmpty();

  /** Whether this is the nothing selector ({@code labels.Nothing()}). */
  boolean isNothing();
}
