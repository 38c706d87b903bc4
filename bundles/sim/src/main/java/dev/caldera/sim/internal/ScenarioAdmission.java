package dev.caldera.sim.internal;

import dev.caldera.admission.Admission;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.sim.ClusterState;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.ScenarioException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A scenario's objects as the scheduler first sees them: the scenario's own rule (a pod naming a
 * pod group that does not exist is an error in the file) checked here, then admitted by the one
 * place that admits, the {@link EmbeddedCluster}'s snapshot.
 */
public final class ScenarioAdmission {

  private ScenarioAdmission() {}

  /**
   * The objects read, checked, as an embedded cluster holding them shows them before its first
   * session.
   *
   * @param hierarchical whether the capacity plugin runs with {@code enableHierarchy}
   * @throws ScenarioException when a pod names a pod group that does not exist
   */
  public static ClusterState admitted(StateBuilder b, boolean hierarchical)
      throws ScenarioException {
    checkGroups(b);
    return new EmbeddedCluster(
            b.build(),
            Map.of(),
            Map.of(),
            new EmbeddedCluster.Rules(b.preemptionPolicies, hierarchical))
        .state();
  }

  /**
   * @throws ScenarioException when a pod names a pod group that does not exist
   */
  static void checkGroups(StateBuilder b) throws ScenarioException {
    Set<String> groups = new HashSet<>();
    for (PodGroup pg : b.podGroups) {
      groups.add(pg.key());
    }
    for (Pod pod : b.pods) {
      String group = Admission.groupName(pod);
      if (group != null && !groups.contains(pod.namespace() + "/" + group)) {
        Fields f = b.podFields.get(pod.key());
        throw f.error(
            "metadata.annotations." + Admission.GROUP_ANNOTATION,
            "pod group " + pod.namespace() + "/" + group + " does not exist");
      }
    }
  }
}
