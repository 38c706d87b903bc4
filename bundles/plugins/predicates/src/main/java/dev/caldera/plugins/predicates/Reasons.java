package dev.caldera.plugins.predicates;

import dev.caldera.api.extension.Status;

/**
 * The failure reasons, worded as kube-scheduler v1.36 and Volcano word them, with one shared status
 * per single failure so that a rejection costs no allocation either.
 */
final class Reasons {

  static final String POD_NUMBER_EXCEEDED = "node(s) pod number exceeded";
  static final String NODE_UNSCHEDULABLE = "node(s) were unschedulable";
  static final String NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
  static final String UNTOLERATED_TAINT = "node(s) had untolerated taint(s)";
  static final String NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
  static final String POD_AFFINITY = "node(s) didn't match pod affinity rules";
  static final String POD_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
  static final String EXISTING_ANTI_AFFINITY =
      "node(s) didn't satisfy existing pods anti-affinity rules";
  static final String SPREAD = "node(s) didn't match pod topology spread constraints";
  static final String SPREAD_MISSING_LABEL = SPREAD + " (missing required label)";
  static final String CACHED_FAILURE = "plugin equivalence cache predicates failed";
  static final String NODE_INFO_NOT_FOUND = "node info not found";
  static final String NODE_AFFINITY_CONFLICT =
      "plugin NodeAffinity pre-predicates failed pod affinity terms conflict";

  /**
   * The reason of the Warning event for a pod whose placement terms Kubernetes would reject (one
   * event per pod and session, the message naming each field); the pod is still scheduled, the bad
   * term read as {@link dev.caldera.api.placement.PodPlacement} documents.
   */
  static final String INVALID_PLACEMENT_TERMS = "InvalidPlacementTerms";

  static final Status POD_COUNT_STATUS = Status.unschedulable(POD_NUMBER_EXCEEDED);
  static final Status NODE_UNSCHEDULABLE_STATUS = Status.unresolvable(NODE_UNSCHEDULABLE);
  static final Status NODE_AFFINITY_STATUS = Status.unresolvable(NODE_AFFINITY);
  static final Status TAINT_STATUS = Status.unresolvable(UNTOLERATED_TAINT);
  static final Status NODE_PORTS_STATUS = Status.unschedulable(NODE_PORTS);
  static final Status POD_AFFINITY_STATUS = Status.unresolvable(POD_AFFINITY);
  static final Status POD_ANTI_AFFINITY_STATUS = Status.unschedulable(POD_ANTI_AFFINITY);
  static final Status EXISTING_ANTI_AFFINITY_STATUS = Status.unschedulable(EXISTING_ANTI_AFFINITY);
  static final Status SPREAD_STATUS = Status.unschedulable(SPREAD);
  static final Status SPREAD_MISSING_LABEL_STATUS = Status.unresolvable(SPREAD_MISSING_LABEL);
  static final Status CACHED_FAILURE_STATUS = Status.error(CACHED_FAILURE);
  static final Status NODE_INFO_NOT_FOUND_STATUS = Status.error(NODE_INFO_NOT_FOUND);
  static final Status NODE_AFFINITY_CONFLICT_STATUS = Status.error(NODE_AFFINITY_CONFLICT);

  private Reasons() {}

  /**
   * Whether Volcano stops evaluating further filters after this status ({@code ShouldAbort}):
   * anything but success and plain Unschedulable.
   */
  static boolean aborts(Status status) {
    return !status.resolvableByPreemption();
  }
}
