package dev.caldera.admission;

import dev.caldera.api.info.PodFacts;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Cluster admission for one set of PriorityClasses: Kubernetes' Priority admission plugin and
 * Volcano's pod group controller, applied pod by pod ({@link #admit}), plus the queues Volcano's
 * controllers create ({@link #withDefaultQueues}). Immutable; thread-safe.
 */
public final class Admission {

  /** The pod annotation naming the pod group. */
  public static final String GROUP_ANNOTATION = PodFacts.GROUP_NAME;

  /** The pod annotation naming the queue of an implicit pod group. */
  public static final String QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** The queue of pod groups that name none, which Volcano's controllers create. */
  public static final String DEFAULT_QUEUE = "default";

  /** The root of hierarchical queues, which Volcano's controllers create in hierarchical mode. */
  public static final String ROOT_QUEUE = "root";

  /** Pod annotations with this prefix are copied to the implicit group. */
  private static final String VOLCANO_PREFIX = "volcano.sh/";

  private final Map<String, PriorityClass> classes = new HashMap<>();
  private final PriorityClass globalDefault;
  private final Map<String, String> preemptionPolicies;
  private final ImplicitGroupNaming naming;

  /**
   * @param priorityClasses the cluster's PriorityClasses (of two with one name, the later counts)
   * @param preemptionPolicies PriorityClass name → its {@code preemptionPolicy}, for the classes
   *     that set one (no null keys or values)
   * @param naming how implicit pod groups are named: the one genuine difference between cluster
   *     sources
   */
  public Admission(
      Collection<PriorityClass> priorityClasses,
      Map<String, String> preemptionPolicies,
      ImplicitGroupNaming naming) {
    for (PriorityClass pc : priorityClasses) {
      classes.put(pc.name(), pc);
    }
    this.globalDefault = globalDefault(priorityClasses);
    this.preemptionPolicies = Map.copyOf(preemptionPolicies);
    this.naming = Objects.requireNonNull(naming, "naming");
  }

  /** The global default class (of several, the lowest value; of equal ones, the first), or null. */
  public static PriorityClass globalDefault(Iterable<PriorityClass> classes) {
    PriorityClass d = null;
    for (PriorityClass pc : classes) {
      if (pc.globalDefault() && (d == null || pc.value() < d.value())) {
        d = pc;
      }
    }
    return d;
  }

  /**
   * Admits one pod: {@link #withPriority}, then, for a pod of this scheduler without a pod group,
   * the implicit group joins {@code groups} (unless a group of that key is there already) and the
   * pod gets the group annotation. A pod naming a group is left to the caller to check.
   *
   * @param ofThisScheduler whether the pod's {@code schedulerName} is one this scheduler serves
   * @param groups pod group key → pod group; implicit groups are added
   */
  public Pod admit(Pod pod, boolean ofThisScheduler, Map<String, PodGroup> groups) {
    Pod p = withPriority(pod);
    if (ofThisScheduler && groupName(p) == null) {
      PodGroup implicit = implicitGroup(p);
      groups.putIfAbsent(implicit.key(), implicit);
      p = PodCopies.withAnnotation(p, GROUP_ANNOTATION, implicit.metadata().name());
    }
    return p;
  }

  /**
   * Kubernetes' Priority admission: a pod without {@code spec.priority} gets its class's value (and
   * preemption policy, when the pod sets none), or the global default's when it names no class; a
   * pod with a priority, or naming a class that does not exist, is returned as it is (Volcano then
   * uses 1).
   */
  public Pod withPriority(Pod p) {
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
    return PodCopies.withPriority(p, pc.value(), policy);
  }

  /**
   * Volcano's pod group controller ({@code buildPodGroupFromPod}) for a pod without a group:
   * minMember 1, {@code minResources} the pod's {@link PodRequests}, the pod's priority class and
   * creation time, the queue of its {@link #QUEUE_ANNOTATION} (else {@link #DEFAULT_QUEUE}), its
   * {@code volcano.sh/} annotations, and its controlling owners (else the pod itself) as owners.
   */
  public PodGroup implicitGroup(Pod p) {
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
            naming.groupName(p),
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
        queue == null || queue.isEmpty() ? DEFAULT_QUEUE : queue,
        1,
        null,
        PodRequests.of(p),
        p.priorityClassName(),
        "Pending",
        null);
  }

  /** The pod group the pod names in its {@link #GROUP_ANNOTATION}, or null when none. */
  public static String groupName(Pod p) {
    String g = p.metadata().annotations().get(GROUP_ANNOTATION);
    return g == null || g.isEmpty() ? null : g;
  }

  /**
   * The queues with those Volcano's controllers create: an open {@link #DEFAULT_QUEUE} when there
   * are none, and in hierarchical mode an open {@link #ROOT_QUEUE} when it is missing. A new list.
   */
  public static List<Queue> withDefaultQueues(List<Queue> queues, boolean hierarchical) {
    List<Queue> out = new ArrayList<>(queues);
    if (out.isEmpty()) {
      out.add(openQueue(DEFAULT_QUEUE));
    }
    if (hierarchical && out.stream().noneMatch(q -> q.name().equals(ROOT_QUEUE))) {
      out.add(openQueue(ROOT_QUEUE));
    }
    return out;
  }

  /** An open cluster-scoped queue of weight 1 with nothing else set. */
  public static Queue openQueue(String name) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, "", 0, null, null, "Open", null);
  }
}
