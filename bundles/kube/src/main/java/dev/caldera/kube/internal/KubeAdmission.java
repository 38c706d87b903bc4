package dev.caldera.kube.internal;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The defaults the simulator applies on admission, applied to what the informers see: pod
 * priorities from PriorityClasses (normally the API server's Priority admission has filled them
 * already), an implicit PodGroup for every pod of this scheduler without one (what Volcano's pod
 * group controller would create), and an open {@code default} queue when the cluster has none.
 *
 * <p>Implicit pod groups and the default queue exist only in snapshots; the writer does not write
 * their status (there is no object on the server).
 */
final class KubeAdmission {

  /** The pod annotation naming the pod group. */
  static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

  /** The pod annotation naming the queue of an implicit pod group. */
  static final String QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name";

  private static final String VOLCANO_PREFIX = "volcano.sh/";

  private KubeAdmission() {}

  /** The global default class (the lowest value if several claim it), or null. */
  static PriorityClass globalDefault(Iterable<PriorityClass> classes) {
    PriorityClass d = null;
    for (PriorityClass pc : classes) {
      if (pc.globalDefault() && (d == null || pc.value() < d.value())) {
        d = pc;
      }
    }
    return d;
  }

  /**
   * The pod with {@code spec.priority} filled from its class (or the global default when it names
   * none); unchanged if it has one or its class does not exist (Volcano then uses 1).
   */
  static Pod withPriority(
      Pod p,
      Map<String, PriorityClass> classes,
      PriorityClass globalDefault,
      Map<String, String> preemptionPolicies) {
    if (p.priority() != null) {
      return p;
    }
    PriorityClass pc =
        p.priorityClassName().isEmpty() ? globalDefault : classes.get(p.priorityClassName());
    if (pc == null) {
      return p;
    }
    String policy = p.preemptionPolicy();
    if (policy.isEmpty()) {
      policy = preemptionPolicies.getOrDefault(pc.name(), "");
    }
    return new Pod(
        p.metadata(),
        p.schedulerName(),
        p.nodeName(),
        pc.value(),
        p.priorityClassName(),
        policy,
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

  /** Whether the pod names a pod group. */
  static boolean hasGroup(Pod p) {
    String g = p.metadata().annotations().get(GROUP_ANNOTATION);
    return g != null && !g.isEmpty();
  }

  /**
   * The name of the implicit group: {@code podgroup-<uid of the controlling owner, else of the
   * pod>}, as Volcano's pod group controller names it ({@code GeneratePodgroupName}).
   */
  static String implicitGroupName(Pod p) {
    for (OwnerReference o : p.metadata().ownerReferences()) {
      if (o.controller() && o.uid() != null && !o.uid().isEmpty()) {
        return "podgroup-" + o.uid();
      }
    }
    return "podgroup-" + p.metadata().uid();
  }

  /** Volcano's pod group controller ({@code buildPodGroupFromPod}) for a pod without a group. */
  static PodGroup implicitGroup(Pod p) {
    ObjectMeta m = p.metadata();
    Map<String, String> annotations = new LinkedHashMap<>();
    m.annotations()
        .forEach(
            (k, v) -> {
              if (k.startsWith(VOLCANO_PREFIX)) {
                annotations.put(k, v);
              }
            });
    List<OwnerReference> owners =
        m.ownerReferences().stream().filter(OwnerReference::controller).toList();
    if (owners.isEmpty()) {
      owners = List.of(new OwnerReference("v1", "Pod", m.name(), m.uid(), true));
    }
    ObjectMeta meta =
        new ObjectMeta(
            implicitGroupName(p),
            m.namespace(),
            null,
            m.creationTimestamp(),
            null,
            null,
            annotations,
            owners);
    String queue = m.annotations().get(QUEUE_ANNOTATION);
    return new PodGroup(
        meta,
        queue == null || queue.isEmpty() ? "default" : queue,
        1,
        null,
        requests(p),
        p.priorityClassName(),
        "Pending",
        null);
  }

  /** The pod with one more annotation. */
  static Pod withAnnotation(Pod p, String key, String value) {
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

  /** The open {@code default} queue Volcano's controllers create. */
  static Queue defaultQueue() {
    return new Queue(
        ObjectMeta.named("", "default"),
        1,
        null,
        null,
        null,
        null,
        "",
        0,
        null,
        null,
        "Open",
        null);
  }

  /**
   * A pod's total request as Kubernetes computes it ({@code resourcehelper.PodRequests}): the
   * containers and sidecar init containers run together, each other init container runs alone after
   * the sidecars started before it, the larger of the two counts, plus the overhead.
   */
  static Map<String, Quantity> requests(Pod pod) {
    Map<String, BigDecimal> reqs = new LinkedHashMap<>();
    for (Container c : pod.containers()) {
      add(reqs, c.requests());
    }
    Map<String, BigDecimal> sidecars = new LinkedHashMap<>();
    Map<String, BigDecimal> initMax = new LinkedHashMap<>();
    for (Container c : pod.initContainers()) {
      Map<String, BigDecimal> running;
      if ("Always".equals(c.restartPolicy())) {
        add(reqs, c.requests());
        add(sidecars, c.requests());
        running = sidecars;
      } else {
        running = new LinkedHashMap<>(sidecars);
        add(running, c.requests());
      }
      running.forEach((k, v) -> initMax.merge(k, v, BigDecimal::max));
    }
    initMax.forEach((k, v) -> reqs.merge(k, v, BigDecimal::max));
    add(reqs, pod.overhead());
    Map<String, Quantity> out = new LinkedHashMap<>();
    reqs.forEach((k, v) -> out.put(k, Quantity.parse(v.stripTrailingZeros().toPlainString())));
    return out;
  }

  private static void add(Map<String, BigDecimal> into, Map<String, Quantity> q) {
    q.forEach((k, v) -> into.merge(k, v.amount(), BigDecimal::add));
  }
}
