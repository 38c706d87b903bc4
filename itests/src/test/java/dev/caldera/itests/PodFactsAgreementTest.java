package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Pod;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionViews;
import dev.caldera.runtime.CalderaCommand;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeTask;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
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
  private static final Map<String, Boolean> SPELLINGS = new LinkedHashMap<>();

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

  /** A pod group {@code ns/pg} with one task {@code p}, the spelling set by {@code mark}. */
  private static FakeJob job(BiConsumer<FakeJob, FakeTask> mark) {
    FakeJob job = new FakeJob("ns/pg");
    mark.accept(job, job.task("p"));
    return job;
  }

  /** The scheduler's reading of the same objects: a session's views of a snapshot holding them. */
  private static JobInfo scheduler(FakeJob job) {
    List<Pod> pods = job.fakeTasks().stream().map(FakeTask::pod).toList();
    Session session =
        SessionViews.open(
            new ClusterSnapshot(
                List.of(),
                pods,
                List.of(job.podGroup()),
                List.of(new FakeQueue("default").queue()),
                null,
                Instant.EPOCH));
    return session.job(job.uid());
  }

  @Test
  void preemptable_meansTheSameInTheSchedulerTheTestKitAndPolicyTest() throws IOException {
    StringBuilder cases = new StringBuilder("cases:\n");
    int n = 0;
    for (String place : PLACES) {
      boolean asLabels = place.equals("labels");
      for (Map.Entry<String, Boolean> e : SPELLINGS.entrySet()) {
        String value = e.getKey();
        FakeJob fakeJob =
            job(
                (j, t) -> {
                  if (asLabels) {
                    j.label(PodFacts.PREEMPTABLE, value);
                    t.label(PodFacts.PREEMPTABLE, value);
                  } else {
                    j.annotation(PodFacts.PREEMPTABLE, value);
                    t.annotation(PodFacts.PREEMPTABLE, value);
                  }
                });
        FakeTask fakeTask = fakeJob.fakeTasks().get(0);
        JobInfo job = scheduler(fakeJob);
        TaskInfo task = job.tasks().get(0);

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
    Map<String, Integer> priorities = new LinkedHashMap<>();
    priorities.put("7", 7);
    priorities.put(" 7 ", 7);
    priorities.put("-3", -3);
    priorities.put("x", 1); // an unparseable override is ignored
    priorities.put("", 1);
    priorities.put("2147483648", 1);
    priorities.forEach(
        (value, expected) -> {
          FakeJob fakeJob =
              job(
                  (j, t) ->
                      t.annotation(PodFacts.TASK_PRIORITY, value)
                          .annotation(PodFacts.TASK_SPEC, "worker" + value));
          FakeTask fake = fakeJob.fakeTasks().get(0);
          TaskInfo task = scheduler(fakeJob).tasks().get(0);

          assertThat(task.priority()).as("scheduler, priority \"%s\"", value).isEqualTo(expected);
          assertThat(fake.priority()).as("test kit, priority \"%s\"", value).isEqualTo(expected);
          assertThat(fake.taskRole()).as("role \"%s\"", value).isEqualTo(task.taskRole());
        });
  }
}
