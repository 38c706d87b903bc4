package dev.caldera.plugins.predicates;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.api.extension.Status;

/**
 * Volcano's {@code predicates} plugin: the Kubernetes filters a pod must pass on a node, apart from
 * resources (node pod count, unschedulable, node affinity, taints, host ports, inter-pod affinity,
 * topology spread), with the pre-filter state, the topology-aware preemption simulations and the
 * event handler that keep them current, and kube-scheduler's volume filters (VolumeBinding,
 * VolumeZone, VolumeRestrictions, NodeVolumeLimits) with the volumes they choose assumed per task
 * and handed to the bind.
 */
public final class PredicatesPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "predicates";

  private final PredicatesArguments arguments;

  public PredicatesPlugin(PredicatesArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The validated arguments. */
  public PredicatesArguments arguments() {
    return arguments;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    PredicatesSession predicates = new PredicatesSession(arguments, session);
    extensions.add(ExtensionPoint.PRE_PREDICATE, predicates::prePredicate);
    extensions.add(ExtensionPoint.PREDICATE, predicates::predicate, predicates::localityKey);
    // Volume binding scores only with storage capacity tracking (not modelled); DRA: no claims.
    extensions.add(
        ExtensionPoint.BATCH_NODE_ORDER,
        (task, nodes, scores) -> Status.OK,
        NodeLocality.TASK_INDEPENDENT);
    extensions.add(ExtensionPoint.SIMULATE_PREDICATE, predicates::simulatePredicate);
    extensions.add(ExtensionPoint.SIMULATE_ADD_TASK, predicates::simulateAddTask);
    extensions.add(ExtensionPoint.SIMULATE_REMOVE_TASK, predicates::simulateRemoveTask);
    extensions.add(ExtensionPoint.EVENT_HANDLER, predicates.eventHandler());
    extensions.add(ExtensionPoint.PRE_BIND, predicates::volumeBindings);
  }
}
