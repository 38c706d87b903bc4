package dev.caldera.sim;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import java.util.List;

/**
 * What changes in the cluster before one session of a scenario opens (its {@code timeline:}): as a
 * workload's controllers would, pod groups and pods are created and pod groups deleted with their
 * pods.
 *
 * @param session the session before which the step applies (from 2)
 * @param podGroups the pod groups created, admitted as the scenario's own objects are
 * @param pods the pods created (of these pod groups or of existing ones)
 * @param deleted the pod groups deleted (namespace/name), with their pods
 */
public record TimelineStep(
    int session, List<PodGroup> podGroups, List<Pod> pods, List<String> deleted) {

  public TimelineStep {
    podGroups = List.copyOf(podGroups);
    pods = List.copyOf(pods);
    deleted = List.copyOf(deleted);
  }
}
