package dev.caldera.sim.internal;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Copies of a pod with some fields changed, as admission and the cluster writer change them. */
public final class Pods {

  private Pods() {}

  /** The pod with {@code spec.priority} and {@code spec.preemptionPolicy} set. */
  public static Pod withPriority(Pod p, Integer priority, String preemptionPolicy) {
    return new Pod(
        p.metadata(),
        p.schedulerName(),
        p.nodeName(),
        priority,
        p.priorityClassName(),
        preemptionPolicy,
        p.nodeSelector(),
        p.nodeAffinity(),
        p.podAffinity(),
        p.podAntiAffinity(),
        p.tolerations(),
        p.containers(),
        p.initContainers(),
        p.topologySpreadConstraints(),
        p.overhead(),
        p.schedulingGates(),
        p.phase(),
        p.nominatedNodeName(),
        p.conditions());
  }

  /** The pod with one more annotation. */
  public static Pod withAnnotation(Pod p, String key, String value) {
    ObjectMeta m = p.metadata();
    Map<String, String> annotations = new LinkedHashMap<>(m.annotations());
    annotations.put(key, value);
    ObjectMeta meta =
        new ObjectMeta(
            m.name(),
            m.namespace(),
            m.uid(),
            m.creationTimestamp(),
            m.deletionTimestamp(),
            m.labels(),
            annotations,
            m.ownerReferences());
    return new Pod(
        meta,
        p.schedulerName(),
        p.nodeName(),
        p.priority(),
        p.priorityClassName(),
        p.preemptionPolicy(),
        p.nodeSelector(),
        p.nodeAffinity(),
        p.podAffinity(),
        p.podAntiAffinity(),
        p.tolerations(),
        p.containers(),
        p.initContainers(),
        p.topologySpreadConstraints(),
        p.overhead(),
        p.schedulingGates(),
        p.phase(),
        p.nominatedNodeName(),
        p.conditions());
  }

  /**
   * The pod bound to {@code node}: Running there, no nomination, {@code PodScheduled=True} since
   * {@code now}.
   */
  public static Pod bound(Pod p, String node, Instant now) {
    PodCondition scheduled = new PodCondition("PodScheduled", "True", null, null, now);
    return status(p, node, "Running", "", withCondition(p.conditions(), scheduled));
  }

  /**
   * The pod with a status update: the condition replaces the one of its type (when not null) and
   * the nominated node is set (when not null). A condition without a transition time keeps the old
   * one's when its status did not change, else it changed {@code now}.
   */
  public static Pod updated(Pod p, PodCondition condition, String nominatedNodeName, Instant now) {
    List<PodCondition> conditions = p.conditions();
    if (condition != null) {
      PodCondition c = condition;
      if (c.lastTransitionTime() == null) {
        Instant since = now;
        for (PodCondition old : p.conditions()) {
          if (old.type().equals(c.type())
              && Objects.equals(old.status(), c.status())
              && old.lastTransitionTime() != null) {
            since = old.lastTransitionTime();
          }
        }
        c = new PodCondition(c.type(), c.status(), c.reason(), c.message(), since);
      }
      conditions = withCondition(p.conditions(), c);
    }
    String nominated = nominatedNodeName == null ? p.nominatedNodeName() : nominatedNodeName;
    return status(p, p.nodeName(), p.phase(), nominated, conditions);
  }

  private static List<PodCondition> withCondition(
      List<PodCondition> conditions, PodCondition condition) {
    List<PodCondition> out = new ArrayList<>();
    boolean replaced = false;
    for (PodCondition c : conditions) {
      if (c.type().equals(condition.type())) {
        out.add(condition);
        replaced = true;
      } else {
        out.add(c);
      }
    }
    if (!replaced) {
      out.add(condition);
    }
    return out;
  }

  private static Pod status(
      Pod p, String nodeName, String phase, String nominated, List<PodCondition> conditions) {
    return p.withStatus(nodeName, phase, nominated, conditions);
  }
}
