package dev.caldera.sim.internal;

import dev.caldera.admission.Conditions;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import java.time.Instant;
import java.util.List;

/** Copies of a pod as the embedded cluster's writer changes it. */
public final class Pods {

  private Pods() {}

  /**
   * The pod bound to {@code node}: Running there, no nomination, {@code PodScheduled=True} since
   * {@code now}.
   */
  public static Pod bound(Pod p, String node, Instant now) {
    PodCondition scheduled = new PodCondition("PodScheduled", "True", null, null, now);
    return p.withStatus(node, "Running", "", Conditions.replace(p.conditions(), scheduled, now));
  }

  /**
   * The pod with a status update: the condition replaces the one of its type (when not null; see
   * {@link Conditions#replace}) and the nominated node is set (when not null).
   */
  public static Pod updated(Pod p, PodCondition condition, String nominatedNodeName, Instant now) {
    List<PodCondition> conditions =
        condition == null ? p.conditions() : Conditions.replace(p.conditions(), condition, now);
    String nominated = nominatedNodeName == null ? p.nominatedNodeName() : nominatedNodeName;
    return p.withStatus(p.nodeName(), p.phase(), nominated, conditions);
  }
}
