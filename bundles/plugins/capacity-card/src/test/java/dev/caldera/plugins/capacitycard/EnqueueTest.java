package dev.caldera.plugins.capacitycard;

import static dev.caldera.plugins.capacitycard.Fixtures.gpuNode;
import static dev.caldera.plugins.capacitycard.Fixtures.messages;
import static dev.caldera.plugins.capacitycard.Fixtures.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnqueueTest {

  private static final Map<String, Object> UNLIMITED = Map.of("cardUnlimitedCpuMemory", true);

  private final FakeSession s = new FakeSession();

  private FakeJob cardJob(String uid, String queue, String request) {
    return s.addJob(uid)
        .queue(queue)
        .minResources("cpu", "100m", "memory", "100Mi", "nvidia.com/gpu", "1")
        .annotation("volcano.sh/card.request", request);
  }

  @Test
  void refusal_hasTheIssuesFormInCards() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("cr-queue1").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":3}");
    FakeJob job = cardJob("team/job-b", "cr-queue1", "{\"NVIDIA-H200\":5}");

    Vote vote = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job);

    assertThat(vote).isEqualTo(Vote.REJECT);
    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "team/job-b",
                "Warning",
                "Inadmissible",
                "pod group team/job-b can never fit: it asks 5 <NVIDIA-H200>, more than queue"
                    + " <cr-queue1>'s card quota of 3"),
            new RecordedEvent(
                "PodGroup",
                "team/job-b",
                "Warning",
                "InsufficientScalarQuota",
                "Queue <cr-queue1> has insufficient <NVIDIA-H200> quota: requested <5>, total would"
                    + " be <5>, but capability is <3>"));
  }

  @Test
  void refusal_reachesThePendingPodsOfTheJob_notItsRunningOnes() {
    FakeNode n1 = gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":3}");
    FakeJob job = s.addJob("team/job").queue("q").minMember(2);
    job.minResources("cpu", "200m", "memory", "200Mi", "nvidia.com/gpu", "4");
    job.task("job-0")
        .annotation("volcano.sh/card.name", "NVIDIA-H200")
        .requests("cpu", "100m", "memory", "100Mi", "nvidia.com/gpu", "2")
        .status(TaskStatus.RUNNING)
        .on(n1);
    job.task("job-1")
        .annotation("volcano.sh/card.name", "NVIDIA-H200")
        .requests("cpu", "100m", "memory", "100Mi", "nvidia.com/gpu", "2");

    Vote vote = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job);

    assertThat(vote).isEqualTo(Vote.REJECT);
    String message =
        "Queue <q> has insufficient <NVIDIA-H200> quota: requested <2>, total would be <4>, but"
            + " capability is <3>";
    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup", "team/job", "Warning", "InsufficientScalarQuota", message),
            new RecordedEvent("Pod", "team/job-1", "Warning", "FailedScheduling", message));
  }

  @Test
  void aPodGroupOfARunningPod_isNotRefusedForTheCardsItHoldsAlready() {
    FakeNode n1 = gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":2}");
    FakeJob replica = s.addJob("team/replica-a").queue("q");
    replica.minResources("cpu", "100m", "memory", "100Mi", "nvidia.com/gpu", "2");
    replica
        .task("replica-a")
        .annotation("volcano.sh/card.name", "NVIDIA-H200")
        .requests("cpu", "100m", "memory", "100Mi", "nvidia.com/gpu", "2")
        .status(TaskStatus.RUNNING)
        .on(n1);

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(replica))
        .isEqualTo(Vote.PERMIT);
    assertThat(s.events()).isEmpty();
  }

  @Test
  void aCardNoNodeHas_isRefusedAtEnqueue_withAnEventNamingIt() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-B200\":8}");
    FakeJob job =
        cardJob("team/b200", "q", "{\"NVIDIA-B200\":1}")
            .annotation("volcano.sh/card.name", "NVIDIA-B200");

    Vote vote = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job);

    assertThat(vote).isEqualTo(Vote.REJECT);
    assertThat(s.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.reason()).isEqualTo("InvalidCardAnnotation");
              assertThat(e.message())
                  .isEqualTo(
                      "volcano.sh/card.name of the pod group: no node has card NVIDIA-B200 (known"
                          + " cards: NVIDIA-H200); the job waits in Pending until a node has it");
            });
  }

  @Test
  void inqueueOfAdmittedJobs_countsAgainstLaterJobs() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":3}");
    FakeJob a = cardJob("team/a", "q", "{\"NVIDIA-H200\":2}");
    FakeJob b = cardJob("team/b", "q", "{\"NVIDIA-H200\":2}");
    RecordingExtensions ext = open(s, UNLIMITED);
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(a)).isEqualTo(Vote.PERMIT);
    ext.get(ExtensionPoint.JOB_ENQUEUED).enqueued(a);

    assertThat(enqueueable.vote(b)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/b"))
        .containsExactly(
            "Queue <q> has insufficient <NVIDIA-H200> quota: requested <2>, total would be <4>,"
                + " but capability is <3>");
  }

  @Test
  void podsRequests_replaceTheJobAnnotationOncePodsExist() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":3}");
    FakeJob job = cardJob("team/a", "q", "{\"NVIDIA-H200\":1}");
    for (int i = 0; i < 2; i++) {
      job.task("a-" + i)
          .annotation("volcano.sh/card.name", "NVIDIA-H200")
          .requests("cpu", "100m", "nvidia.com/gpu", "2");
    }

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/a"))
        .containsExactly(
            "pod group team/a can never fit: it asks 4 <NVIDIA-H200>, more than queue <q>'s card"
                + " quota of 3",
            "Queue <q> has insufficient <NVIDIA-H200> quota: requested <4>, total would be <4>,"
                + " but capability is <3>");
  }

  @Test
  void allocatedAndInqueue_ofJobsInTheQueue_countAtSessionOpen() {
    FakeNode n1 = gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":6}");
    // Running, all 3 pods placed: 3 allocated, nothing left inqueue.
    FakeJob running = cardJob("team/run", "q", "{\"NVIDIA-H200\":1}").phase(PodGroupPhase.Running);
    for (int i = 0; i < 3; i++) {
      running
          .task("r-" + i)
          .annotation("volcano.sh/card.name", "NVIDIA-H200")
          .requests("nvidia.com/gpu", "1")
          .status(TaskStatus.RUNNING)
          .on(n1);
    }
    // Inqueue, nothing placed: 2 inqueue.
    cardJob("team/inq", "q", "{\"NVIDIA-H200\":2}").phase(PodGroupPhase.Inqueue);
    FakeJob fits = cardJob("team/fits", "q", "{\"NVIDIA-H200\":1}");
    FakeJob tooBig = cardJob("team/big", "q", "{\"NVIDIA-H200\":2}");
    JobEnqueueableFn enqueueable = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(fits)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(tooBig)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/big"))
        .containsExactly(
            "Queue <q> has insufficient <NVIDIA-H200> quota: requested <2>, total would be <7>,"
                + " but capability is <6>");
  }

  @Test
  void elastic_allocationBeyondTheMinimumDoesNotBlockEnqueue() {
    FakeNode n1 = s.addNode("n1").allocatable("cpu", "64", "memory", "64Gi");
    s.addQueue("q").capability("cpu", "4", "memory", "64Gi");
    // minimum 1 cpu, 3 placed: 3 allocated, 2 elastic.
    FakeJob running =
        s.addJob("team/run").queue("q").minResources("cpu", "1").phase(PodGroupPhase.Running);
    for (int i = 0; i < 3; i++) {
      running.task("r-" + i).requests("cpu", "1").status(TaskStatus.RUNNING).on(n1);
    }
    FakeJob three = s.addJob("team/three").queue("q").minResources("cpu", "3");
    FakeJob four = s.addJob("team/four").queue("q").minResources("cpu", "4");
    JobEnqueueableFn enqueueable = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE);

    // 3 + 3 − 2 = 4 ≤ 4; 4 + 3 − 2 = 5 > 4.
    assertThat(enqueueable.vote(three)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(four)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/four"))
        .containsExactly(
            "Queue <q> has insufficient CPU quota: requested <4>, total would be <5>, but"
                + " capability is <4>");
  }

  @Test
  void overCommitFactor_admitsUpToQuotaTimesFactor() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":3}");
    FakeJob six = cardJob("team/six", "q", "{\"NVIDIA-H200\":6}");
    FakeJob seven = cardJob("team/seven", "q", "{\"NVIDIA-H200\":7}");
    Map<String, Object> args = Map.of("cardUnlimitedCpuMemory", true, "overCommitFactor", 2);
    JobEnqueueableFn enqueueable = open(s, args).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(six)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(seven)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/seven"))
        .containsExactly(
            "pod group team/seven can never fit: it asks 7 <NVIDIA-H200>, more than queue <q>'s"
                + " card quota of 6",
            "Queue <q> has insufficient <NVIDIA-H200> quota: requested <7>, total would be <7>,"
                + " but capability is <6>");
  }

  @Test
  void multiModelRequest_fitsTheSumOfItsModels() {
    gpuNode(s, "a1", "A", 1);
    gpuNode(s, "b1", "B", 2);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"A\":1,\"B\":2}");
    FakeJob three = cardJob("team/three", "q", "{\"A|B\":3}");
    FakeJob four = cardJob("team/four", "q", "{\"B|A\":4}");
    JobEnqueueableFn enqueueable = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(three)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(four)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/four"))
        .containsExactly(
            "pod group team/four can never fit: it asks 4 <B|A>, more than queue <q>'s card quota"
                + " of 3 and the cluster's 3 cards",
            "Queue <q> has insufficient <B|A> quota: requested <4>, total would be <4>, but"
                + " capability is <3>");
  }

  @Test
  void cardNotInTheQueueQuota_cannotBeUsed() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H800\":4}");
    FakeJob job = cardJob("team/a", "q", "{\"NVIDIA-H200\":1}");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/a"))
        .containsExactly(
            "pod group team/a can never fit: it asks 1 <NVIDIA-H200>, more than queue <q>'s card"
                + " quota of 0",
            "Queue <q> has insufficient <NVIDIA-H200> quota: requested <1>, total would be <1>,"
                + " but capability is <0>");
  }

  @Test
  void cpu_withoutCapabilityIsZero_messageInCores() {
    s.addQueue("q");
    FakeJob job = s.addJob("team/cpu").queue("q").minResources("cpu", "1", "memory", "1Gi");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.REJECT);
    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "team/cpu",
                "Warning",
                "InsufficientCPUQuota",
                "Queue <q> has insufficient CPU quota: requested <1>, total would be <1>, but"
                    + " capability is <0>"));
  }

  @Test
  void cpu_messageInMillicoresWhenNotWhole() {
    s.addQueue("q").capability("cpu", "1", "memory", "8Gi");
    FakeJob ok = s.addJob("team/ok").queue("q").minResources("cpu", "500m");
    FakeJob big = s.addJob("team/big").queue("q").minResources("cpu", "1500m");
    RecordingExtensions ext = open(s, UNLIMITED);
    ext.get(ExtensionPoint.JOB_ENQUEUED).enqueued(ok);

    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(big)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/big"))
        .containsExactly(
            "Queue <q> has insufficient CPU quota: requested <1500m>, total would be <2>, but"
                + " capability is <1>");
  }

  @Test
  void memory_messageInMiOrGi() {
    s.addQueue("q").capability("cpu", "8", "memory", "1Gi");
    FakeJob small = s.addJob("team/small").queue("q").minResources("memory", "512Mi");
    FakeJob big = s.addJob("team/big").queue("q").minResources("memory", "2Gi");
    RecordingExtensions ext = open(s, UNLIMITED);
    ext.get(ExtensionPoint.JOB_ENQUEUED).enqueued(small);

    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(big)).isEqualTo(Vote.REJECT);
    assertThat(s.events())
        .extracting(RecordedEvent::reason, RecordedEvent::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "InsufficientMemoryQuota",
                "Queue <q> has insufficient memory quota: requested <2Gi>, total would be"
                    + " <2560Mi>, but capability is <1Gi>"));
  }

  @Test
  void cardUnlimitedCpuMemory_exemptsCardJobsOnly() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":4}");
    FakeJob card = cardJob("team/card", "q", "{\"NVIDIA-H200\":1}");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(card))
        .isEqualTo(Vote.PERMIT);
    assertThat(open(s, Map.of()).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(card))
        .isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/card"))
        .containsExactly(
            "Queue <q> has insufficient CPU quota: requested <100m>, total would be <100m>, but"
                + " capability is <0>");
  }

  @Test
  void closedQueue_rejectsWithoutEvent() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").state("Closed").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":4}");
    FakeJob job = cardJob("team/a", "q", "{\"NVIDIA-H200\":1}");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.REJECT);
    assertThat(s.events()).isEmpty();
  }

  @Test
  void malformedJobRequest_isReportedOnThePodGroup() {
    gpuNode(s, "n1", "NVIDIA-H200", 8);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"NVIDIA-H200\":4}");
    FakeJob job = cardJob("team/a", "q", "{\"NVIDIA-H200\":-2}");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.PERMIT);
    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "team/a",
                "Warning",
                "InvalidCardAnnotation",
                "volcano.sh/card.request: count of \"NVIDIA-H200\" is -2, expected 0 or more"));
  }

  @Test
  void multiModelInqueue_countsAgainstRequestsCoveringAllItsModels() {
    gpuNode(s, "a1", "A", 1);
    gpuNode(s, "b1", "B", 2);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"A\":1,\"B\":2}");
    FakeJob both = cardJob("team/both", "q", "{\"A|B\":2}");
    FakeJob onlyA = cardJob("team/only-a", "q", "{\"A\":1}");
    FakeJob more = cardJob("team/more", "q", "{\"B|A\":2}");
    RecordingExtensions ext = open(s, UNLIMITED);
    ext.get(ExtensionPoint.JOB_ENQUEUED).enqueued(both);
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);

    // A|B may still be served by B alone, so A keeps its room; A|B as a whole has 1 left.
    assertThat(enqueueable.vote(onlyA)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(more)).isEqualTo(Vote.REJECT);
    assertThat(messages(s, "team/more"))
        .containsExactly(
            "Queue <q> has insufficient <B|A> quota: requested <2>, total would be <4>, but"
                + " capability is <3>");
  }

  @Test
  void runningMultiModelJob_placedPodsCoverItsMinimum() {
    FakeNode a1 = gpuNode(s, "a1", "A", 1);
    FakeNode b1 = gpuNode(s, "b1", "B", 2);
    s.addQueue("q").annotation("volcano.sh/card.quota", "{\"A\":1,\"B\":2}");
    FakeJob running = cardJob("team/run", "q", "{\"A|B\":2}").phase(PodGroupPhase.Running);
    for (FakeNode n : new FakeNode[] {a1, b1}) {
      running
          .task("r-" + n.name())
          .annotation("volcano.sh/card.name", "A|B")
          .requests("nvidia.com/gpu", "1")
          .status(TaskStatus.RUNNING)
          .on(n);
    }
    FakeJob one = cardJob("team/one", "q", "{\"B\":1}");
    FakeJob two = cardJob("team/two", "q", "{\"B\":2}");
    JobEnqueueableFn enqueueable = open(s, UNLIMITED).get(ExtensionPoint.JOB_ENQUEUEABLE);

    // Charged A 1 and B 1 by node, nothing inqueue: B has 1 left.
    assertThat(enqueueable.vote(one)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(two)).isEqualTo(Vote.REJECT);
  }
}
