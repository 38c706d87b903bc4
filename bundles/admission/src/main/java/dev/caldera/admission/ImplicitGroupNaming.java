package dev.caldera.admission;

import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;

/** How the implicit pod group of a pod without a pod group is named. */
public enum ImplicitGroupNaming {

  /**
   * {@code podgroup-<uid of the controlling owner>}, else {@code podgroup-<pod uid>}: Volcano's
   * {@code GeneratePodgroupName}, so pods of one controller share one group. What a live cluster's
   * pod group controller creates; the Kubernetes source uses it.
   */
  CONTROLLER_UID,

  /**
   * {@code podgroup-<pod uid>} always: every pod without a group is its own job, whatever owns it,
   * as {@code scenario-format.md} defines; the simulator uses it.
   */
  POD_UID;

  /** The name of {@code pod}'s implicit group. */
  public String groupName(Pod pod) {
    if (this == CONTROLLER_UID) {
      for (OwnerReference o : pod.metadata().ownerReferences()) {
        if (o.controller() && o.uid() != null && !o.uid().isEmpty()) {
          return "podgroup-" + o.uid();
        }
      }
    }
    return "podgroup-" + pod.metadata().uid();
  }
}
