package dev.caldera.api.info;

import dev.caldera.api.model.PodGroup;

/**
 * What the scheduler reads from a pod group beyond its spec fields, parsed once ({@code
 * api/job_info.go}, {@code SetPodGroup}); the pod group's counterpart of {@link PodFacts}.
 *
 * @param preemptable {@code volcano.sh/preemptable} (annotation, then label) read by {@link
 *     PodFacts#isTrue}; false when absent
 * @param taskMinAvailableTotal the sum of {@code spec.minTaskMember}
 * @param phase {@code status.phase}; empty or unknown text is Pending
 */
public record PodGroupFacts(boolean preemptable, int taskMinAvailableTotal, PodGroupPhase phase) {

  /** Reads {@code podGroup}. */
  public static PodGroupFacts of(PodGroup podGroup) {
    String preemptable = podGroup.metadata().annotationOrLabel(PodFacts.PREEMPTABLE);
    int total = 0;
    for (int min : podGroup.minTaskMember().values()) {
      total += min;
    }
    return new PodGroupFacts(
        preemptable != null && PodFacts.isTrue(preemptable),
        total,
        PodGroupPhase.parse(podGroup.phase()));
  }
}
