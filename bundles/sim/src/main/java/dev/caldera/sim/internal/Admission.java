package dev.caldera.sim.internal;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a real cluster does to objects between {@code kubectl apply} and the scheduler seeing them:
 * the Priority admission plugin fills pod priorities, Volcano's pod group controller gives every
 * pod of the scheduler without a group an implicit one, and Volcano's controllers create the {@code
 * default} (and, for hierarchical capacity, {@code root}) queue.
 */
public final class Admission {

  /** The pod annotation naming the pod group. */
  public static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";

  /** The pod annotation naming the queue of an implicit pod group. */
  public static final String QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** The scheduler name whose pods are scheduled by Caldera. */
  public static final String SCHEDULER_NAME = "volcano";

  private static final String VOLCANO_PREFIX = "volcano.sh/";

  private Admission() {}

  /**
   * Admits every object in place.
   *
   * @param hierarchical whether the capacity plugin runs with {@code enableHierarchy}
   * @throws ScenarioException when a pod names a pod group that does not exist
   */
  public static void admit(StateBuilder b, boolean hierarchical) throws ScenarioException {
    addDefaultQueues(b, hierarchical);
    Map<String, PriorityClass> classes = new HashMap<>();
    PriorityClass globalDefault = null;
    for (PriorityClass pc : b.priorityClasses) {
      classes.put(pc.name(), pc);
      // Of several global defaults, Kubernetes' Priority admission takes the lowest value.
      if (pc.globalDefault() && (globalDefault == null || pc.value() < globalDefault.value())) {
        globalDefault = pc;
      }
    }
    Map<String, PodGroup> groups = new LinkedHashMap<>();
    for (PodGroup pg : b.podGroups) {
      groups.put(pg.key(), pg);
    }
    List<Pod> admitted = new ArrayList<>(b.pods.size());
    for (Pod pod : b.pods) {
      Pod p = withPriority(pod, classes, globalDefault, b.preemptionPolicies);
      String group = p.metadata().annotations().get(GROUP_ANNOTATION);
      if (group != null && !group.isEmpty()) {
        if (!groups.containsKey(p.namespace() + "/" + group)) {
          Fields f = b.podFields.get(p.key());
          throw f.error(
              "metadata.annotations." + GROUP_ANNOTATION,
              "pod group " + p.namespace() + "/" + group + " does not exist");
        }
      } else if (SCHEDULER_NAME.equals(p.schedulerName())) {
        PodGroup implicit = implicitGroup(p);
        groups.putIfAbsent(implicit.key(), implicit);
        p = Pods.withAnnotation(p, GROUP_ANNOTATION, implicit.metadata().name());
      }
      admitted.add(p);
    }
    b.pods.clear();
    b.pods.addAll(admitted);
    b.podGroups.clear();
    b.podGroups.addAll(groups.values());
  }

  private static void addDefaultQueues(StateBuilder b, boolean hierarchical) {
    if (b.queues.isEmpty()) {
      b.queues.add(openQueue("default"));
    }
    if (hierarchical && b.queues.stream().noneMatch(q -> q.name().equals("root"))) {
      b.queues.add(openQueue("root"));
    }
  }

  private static Queue openQueue(String name) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, "", 0, null, null, "Open", null);
  }

  /**
   * Kubernetes' Priority admission: a pod without {@code spec.priority} gets its class's value (and
   * preemption policy), or the global default's when it names no class; a pod naming a class that
   * does not exist keeps none (Volcano then uses 1).
   */
  private static Pod withPriority(
      Pod p,
      Map<String, PriorityClass> classes,
      PriorityClass globalDefault,
      Map<String, String> policies) {
    if (p.priority() != null) {
      return p;
    }
    PriorityClass pc;
    if (p.priorityClassName().isEmpty()) {
      pc = globalDefault;
    } else {
      pc = classes.get(p.priorityClassName());
    }
    if (pc == null) {
      return p;
    }
    String policy = p.preemptionPolicy();
    if (policy.isEmpty()) {
      policy = policies.getOrDefault(pc.name(), "");
    }
    return Pods.withPriority(p, pc.value(), policy);
  }

  /** Volcano's pod group controller ({@code buildPodGroupFromPod}) for a pod without a group. */
  private static PodGroup implicitGroup(Pod p) {
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
            "podgroup-" + m.uid(),
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
        PodRequests.of(p),
        p.priorityClassName(),
        "Pending",
        null);
  }
}
