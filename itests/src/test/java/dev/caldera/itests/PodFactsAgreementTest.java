package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionViews;
import dev.caldera.runtime.CalderaCommand;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeTask;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every spelling of a Volcano fact means the same in the scheduler (the framework's session views),
 * in the test kit's fakes and in {@code caldera policy test}: all three read it with {@link
 * PodFacts}.
 */
class PodFactsAgreementTest {

  /**
   * The spellings tried, with what Volcano ({@code strconv.ParseBool}, else false) makes of them.
   */
  private static final Map<String, Boolean> SPELLINGS = new java.util.LinkedHashMap<>();

  static {
    for (String yes : List.of("true", "True", "TRUE", " true ", "1", "t", "T")) {
      SPELLINGS.put(yes, true);
    }
    for (String no : List.of("false", "False", "0", "f", "F", "yes", "no", "", "2", "on")) {
      SPELLINGS.put(no, false);
    }
  }

  private static final List<String> PLACES = List.of("annotations", "labels");

  @TempDir Path dir;

  /** The scheduler's reading: a session's views of a snapshot holding the pod and pod group. */
  private static Session scheduler(
      Map<String, String> podMeta, Map<String, String> groupMeta, boolean asLabels) {
    Map<String, String> podAnnotations = new HashMap<>(asLabels ? Map.of() : podMeta);
    podAnnotations.put(PodFacts.GROUP_NAME, "pg");
    Pod pod =
        new Pod(
            new ObjectMeta(
                "p", "ns", null, null, null, asLabels ? podMeta : null, podAnnotations, null),
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            "Pending",
            null,
            null);
    PodGroup group =
        new PodGroup(
            new ObjectMeta(
                "pg",
                "ns",
                null,
                null,
                null,
                asLabels ? groupMeta : null,
                asLabels ? null : groupMeta,
                null),
            "q",
            1,
            null,
            null,
            null,
            null,
            null);
    Queue queue =
        new Queue(
            ObjectMeta.named("", "q"), 1, null, null, null, null, null, 0, null, null, null, null);
    return SessionViews.open(
        new ClusterSnapshot(
            List.of(), List.of(pod), List.of(group), List.of(queue), null, Instant.EPOCH));
  }

  @Test
  void preemptable_meansTheSameInTheSchedulerTheTestKitAndPolicyTest() throws IOException {
    StringBuilder cases = new StringBuilder("cases:\n");
    int n = 0;
    for (String place : PLACES) {
      boolean asLabels = place.equals("labels");
      for (Map.Entry<String, Boolean> e : SPELLINGS.entrySet()) {
        String value = e.getKey();
        Map<String, String> meta = Map.of(PodFacts.PREEMPTABLE, value);
        JobInfo job = scheduler(meta, meta, asLabels).job("ns/pg");
        TaskInfo task = job.tasks().get(0);

        FakeJob fakeJob = new FakeJob("ns/pg");
        FakeTask fakeTask = fakeJob.task("p");
        if (asLabels) {
          fakeJob.label(PodFacts.PREEMPTABLE, value);
          fakeTask.label(PodFacts.PREEMPTABLE, value);
        } else {
          fakeJob.annotation(PodFacts.PREEMPTABLE, value);
          fakeTask.annotation(PodFacts.PREEMPTABLE, value);
        }

        String what = place + " \"" + value + "\"";
        assertThat(task.preemptable()).as("scheduler, pod, %s", what).isEqualTo(e.getValue());
        assertThat(job.preemptable()).as("scheduler, pod group, %s", what).isEqualTo(e.getValue());
        assertThat(fakeTask.preemptable()).as("test kit, pod, %s", what).isEqualTo(e.getValue());
        assertThat(fakeJob.preemptable())
            .as("test kit, pod group, %s", what)
            .isEqualTo(e.getValue());

        // caldera policy test: the candidate's pod and pod group carry the spelling; the policy
        // allows only when both are preemptable.
        String yamlValue = "\"" + value + "\"";
        cases
            .append("- name: ")
            .append(place)
            .append(' ')
            .append(yamlValue)
            .append('\n')
            .append("  reclaimer: {}\n")
            .append("  candidate: {")
            .append(place)
            .append(": {volcano.sh/preemptable: ")
            .append(yamlValue)
            .append("}, podgroup: {")
            .append(place)
            .append(": {volcano.sh/preemptable: ")
            .append(yamlValue)
            .append("}}}\n")
            .append("  expect: ")
            .append(e.getValue() ? "allow" : "deny")
            .append('\n');
        n++;
      }
    }
    Files.writeString(
        dir.resolve("facts.policy"),
        "policy facts\n"
            + "reclaim {\n"
            + "  any may reclaim any when reclaimee.preemptable and reclaimee.podgroup.preemptable\n"
            + "  otherwise deny\n"
            + "}\n");
    Files.writeString(dir.resolve("facts.cases.yaml"), cases.toString());

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        CalderaCommand.commandLine(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8))
            .execute("policy", "test", dir.toString());

    assertThat(out.toString(StandardCharsets.UTF_8)).contains(n + " passed, 0 failed");
    assertThat(code).isZero();
  }

  @Test
  void priorityAndRole_meanTheSameInTheSchedulerAndTheTestKit() {
    List<String> priorities = new ArrayList<>(List.of("7", " 7 ", "-3", "x", "", "2147483648"));
    for (String value : priorities) {
      Map<String, String> meta =
          Map.of(PodFacts.TASK_PRIORITY, value, PodFacts.TASK_SPEC, "worker" + value);
      TaskInfo task = scheduler(meta, Map.of(), false).job("ns/pg").tasks().get(0);
      FakeTask fake =
          new FakeJob("ns/pg")
              .task("p")
              .annotation(PodFacts.TASK_PRIORITY, value)
              .annotation(PodFacts.TASK_SPEC, "worker" + value);

      assertThat(fake.priority()).as("priority \"%s\"", value).isEqualTo(task.priority());
      assertThat(fake.taskRole()).as("role \"%s\"", value).isEqualTo(task.taskRole());
    }
    TaskInfo seven =
        scheduler(Map.of(PodFacts.TASK_PRIORITY, " 7 "), Map.of(), false)
            .job("ns/pg")
            .tasks()
            .get(0);
    TaskInfo unparseable =
        scheduler(Map.of(PodFacts.TASK_PRIORITY, "x"), Map.of(), false).job("ns/pg").tasks().get(0);
    assertThat(seven.priority()).isEqualTo(7);
    assertThat(unparseable.priority()).as("an unparseable override is ignored").isEqualTo(1);
  }
}
