package dev.caldera.api.placement;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A parsed topology spread constraint (upstream's {@code topologySpreadConstraint}): the owner's
 * values for {@code matchLabelKeys} are ANDed into the selector (In), {@code minDomains} defaults
 * to 1, and a node counts for the domains only if it matches the owner's required node selection
 * (unless {@code nodeAffinityPolicy: Ignore}) and, with {@code nodeTaintsPolicy: Honor}, has no
 * taint the owner does not tolerate. The topology key is {@code ""} when missing.
 *
 * <p>Immutable; safe to share between threads. Parsed by the api-support bundle ({@code
 * SpreadConstraints}).
 */
@ProviderType
public interface SpreadConstraint {

  /** {@code whenUnsatisfiable} of a constraint that filters. */
  String DO_NOT_SCHEDULE = "DoNotSchedule";

  /** {@code whenUnsatisfiable} of a constraint that scores. */
  String SCHEDULE_ANYWAY = "ScheduleAnyway";

  /** {@code maxSkew}. */
  int maxSkew();

  /** The node label whose values are the domains; {@code ""} when missing. */
  String topologyKey();

  /** The label selector, {@code matchLabelKeys} included. */
  Selector selector();

  /** {@code minDomains}, 1 when unset. */
  int minDomains();

  /** Whether the owner's required node selection limits the domains (policy Honor, the default). */
  boolean honorNodeAffinity();

  /**
   * Whether untolerated taints keep a node out of the domains ({@code nodeTaintsPolicy: Honor}).
   */
  boolean honorNodeTaints();

  /** {@code whenUnsatisfiable: DoNotSchedule} (a filter); else {@code ScheduleAnyway} (a score). */
  boolean hard();

  /**
   * {@code matchNodeInclusionPolicies}: whether {@code node} counts for this constraint's domains
   * when {@code owner} is placed: it must match the owner's required node selection unless the
   * affinity policy is Ignore, and carry no NoSchedule/NoExecute taint the owner does not tolerate
   * when the taints policy is Honor.
   */
  boolean includes(PodPlacement owner, Node node);

  /** Whether the selector selects a pod with these labels (the owner's own match). */
  boolean selects(Map<String, String> labels);

  /**
   * {@code countPodsMatchSelector} for one pod: it counts when it is in the owner's namespace, not
   * terminating and selected. An empty selector counts no existing pod, though it still {@link
   * #selects} the owner itself.
   */
  boolean counts(Pod existing, String namespace);
}
