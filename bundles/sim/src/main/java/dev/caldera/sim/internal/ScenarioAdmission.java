package dev.caldera.sim.internal;

import dev.caldera.admission.Admission;
import dev.caldera.admission.ImplicitGroupNaming;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a real cluster does to a scenario's objects between {@code kubectl apply} and the scheduler
 * seeing them ({@link Admission}), with the scenario's rules: every pod without a group is its own
 * job ({@link ImplicitGroupNaming#POD_UID}), and a pod naming a pod group that does not exist is an
 * error in the scenario.
 */
public final class ScenarioAdmission {

  /** The scheduler name whose pods are scheduled by Caldera. */
  public static final String SCHEDULER_NAME = "volcano";

  private ScenarioAdmission() {}

  /**
   * Admits every object in place.
   *
   * @param hierarchical whether the capacity plugin runs with {@code enableHierarchy}
   * @throws ScenarioException when a pod names a pod group that does not exist
   */
  public static void admit(StateBuilder b, boolean hierarchical) throws ScenarioException {
    List<Queue> queues = Admission.withDefaultQueues(b.queues, hierarchical);
    b.queues.clear();
    b.queues.addAll(queues);
    Admission admission =
        new Admission(b.priorityClasses, b.preemptionPolicies, ImplicitGroupNaming.POD_UID);
    Map<String, PodGroup> groups = new LinkedHashMap<>();
    for (PodGroup pg : b.podGroups) {
      groups.put(pg.key(), pg);
    }
    List<Pod> admitted = new ArrayList<>(b.pods.size());
    for (Pod pod : b.pods) {
      String group = Admission.groupName(pod);
      if (group != null && !groups.containsKey(pod.namespace() + "/" + group)) {
        Fields f = b.podFields.get(pod.key());
        throw f.error(
            "metadata.annotations." + Admission.GROUP_ANNOTATION,
            "pod group " + pod.namespace() + "/" + group + " does not exist");
      }
      admitted.add(admission.admit(pod, SCHEDULER_NAME.equals(pod.schedulerName()), groups));
    }
    b.pods.clear();
    b.pods.addAll(admitted);
    b.podGroups.clear();
    b.podGroups.addAll(groups.values());
  }
}
