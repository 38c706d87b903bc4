package dev.caldera.plugins.capacitycard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TidalReclaimTest {

  private static final Map<String, Object> TIDAL =
      Map.of(
          "podOwnerReferenceToServiceType",
          Map.of("ReplicaSet", "inference", "Deployment", "inference", "Job", "training"));

  private final FakeSession s = new FakeSession();

  {
    s.addQueue("q-inf").reclaimable(false);
    s.addQueue("q-train").reclaimable(true);
    s.addQueue("q-locked").reclaimable(false);
  }

  private FakeTask task(String job, String queue, String serviceType, String ownerKind) {
    FakeJob j = s.job(job) != null ? s.job(job) : s.addJob(job).queue(queue);
    if (serviceType != null) {
      j.annotation("volcano.sh/service.type", serviceType);
    }
    FakeTask t = j.task(job.substring(job.indexOf('/') + 1) + "-" + j.tasks().size());
    return ownerKind == null ? t : t.owner(ownerKind, "owner");
  }

  private ReclaimableFn reclaimable() {
    return Fixtures.open(s, TIDAL).get(ExtensionPoint.RECLAIMABLE);
  }

  @Test
  void inferenceReclaimsTrainingOnly() {
    FakeTask inference = task("ai/inf", "q-inf", "inference", null);
    FakeTask training = task("ai/train", "q-train", "training", null);
    FakeTask otherInference = task("ai/inf2", "q-train", "inference", null);
    FakeTask unknown = task("ai/other", "q-train", null, null);

    Victims v = reclaimable().select(inference, List.of(training, otherInference, unknown));

    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    assertThat(v.tasks()).containsExactly(training);
  }

  @Test
  void trainingNeverReclaims() {
    FakeTask training = task("ai/train", "q-train", "training", null);
    FakeTask victim = task("ai/train2", "q-train", "training", null);

    assertThat(reclaimable().select(training, List.of(victim)).tasks()).isEmpty();
  }

  @Test
  void serviceType_fromOwnerKindWhenTheAnnotationIsMissingOrUnknown() {
    FakeTask byOwner = task("ai/rs", "q-inf", null, "ReplicaSet");
    FakeTask jobOwned = task("ai/batch", "q-train", "nonsense", "Job");

    assertThat(reclaimable().select(byOwner, List.of(jobOwned)).tasks()).containsExactly(jobOwned);
  }

  @Test
  void aServiceTypeOutsideInferenceAndTraining_isAVictimOfAnyNonTrainingReclaimer() {
    // the seed's reference ReclaimableFn: only inference (and no type at all) is never a victim
    FakeTask inference = task("ai/inf", "q-inf", "inference", null);
    FakeTask unknown = task("ai/other", "q-inf", null, "StatefulSet");
    FakeTask training = task("ai/train", "q-train", "training", null);
    FakeTask batch = task("ai/batch", "q-train", "batch", "Deployment");

    assertThat(reclaimable().select(inference, List.of(batch)).tasks()).containsExactly(batch);
    assertThat(reclaimable().select(unknown, List.of(batch)).tasks()).containsExactly(batch);
    assertThat(reclaimable().select(training, List.of(batch)).tasks()).isEmpty();
  }

  @Test
  void unknownReclaimer_takesTrainingOnly() {
    FakeTask unknown = task("ai/other", "q-inf", null, "StatefulSet");
    FakeTask training = task("ai/train", "q-train", "training", null);
    FakeTask inference = task("ai/inf2", "q-train", "inference", null);
    FakeTask otherUnknown = task("ai/other2", "q-train", null, null);

    assertThat(reclaimable().select(unknown, List.of(training, inference, otherUnknown)).tasks())
        .containsExactly(training);
  }

  @Test
  void aQueuesReclaimableFlag_isLeftToTheReclaimAction() {
    FakeTask inference = task("ai/inf", "q-inf", "inference", null);
    FakeTask locked = task("ai/locked", "q-locked", "training", null);

    assertThat(reclaimable().select(inference, List.of(locked)).tasks()).containsExactly(locked);
  }

  @Test
  void noReclaimArguments_stillTidal_fromThePodGroupAnnotation() {
    FakeTask inference = task("ai/inf", "q-inf", "inference", null);
    FakeTask training = task("ai/train", "q-train", "training", null);
    FakeTask jobOwned = task("ai/batch", "q-train", null, "Job");

    ReclaimableFn fn = Fixtures.open(s, Map.of()).get(ExtensionPoint.RECLAIMABLE);

    // Without podOwnerReferenceToServiceType an owner kind says nothing: the Job is unknown.
    assertThat(fn.select(inference, List.of(training, jobOwned)).tasks()).containsExactly(training);
  }
}
