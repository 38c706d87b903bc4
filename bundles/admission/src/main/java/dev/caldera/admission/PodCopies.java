package dev.caldera.admission;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Copies of a pod with one field changed, as admission and the cluster sources change pods. For a
 * new placement or status use {@link Pod#withStatus}.
 */
public final class PodCopies {

  private PodCopies() {}

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
        p.conditions(),
        p.volumes());
  }

  /** The pod with one more annotation (replacing one of the same key). */
  public static Pod withAnnotation(Pod p, String key, String value) {
    ObjectMeta m = p.metadata();
    Map<String, String> annotations = new LinkedHashMap<>(m.annotations());
    annotations.put(key, value);
    return withMetadata(
        p,
        new ObjectMeta(
            m.name(),
            m.namespace(),
            m.uid(),
            m.creationTimestamp(),
            m.deletionTimestamp(),
            m.labels(),
            annotations,
            m.ownerReferences()));
  }

  /** The pod with {@code metadata.deletionTimestamp} set: terminating since {@code when}. */
  public static Pod withDeletionTimestamp(Pod p, Instant when) {
    ObjectMeta m = p.metadata();
    return withMetadata(
        p,
        new ObjectMeta(
            m.name(),
            m.namespace(),
            m.uid(),
            m.creationTimestamp(),
            when,
            m.labels(),
            m.annotations(),
            m.ownerReferences()));
  }

  /** The pod with other metadata. */
  public static Pod withMetadata(Pod p, ObjectMeta metadata) {
    return new Pod(
        metadata,
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
        p.conditions(),
        p.volumes());
  }
}
