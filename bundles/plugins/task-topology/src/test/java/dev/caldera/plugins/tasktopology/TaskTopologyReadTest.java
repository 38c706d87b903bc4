package dev.caldera.plugins.tasktopology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.testkit.FakeJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cases of Volcano's {@code Test_readTopologyFromPgAnnotations}. */
class TaskTopologyReadTest {

  private static FakeJob job(String... roles) {
    FakeJob job = new FakeJob("default/job1");
    int i = 0;
    for (String role : roles) {
      job.task("job1-" + role + "-" + i++).role(role);
    }
    return job;
  }

  private static FakeJob tfJob() {
    return job("ps", "ps", "worker", "worker", "chief", "evaluator");
  }

  @Test
  void read_correctAnnotations() throws Exception {
    FakeJob job =
        tfJob()
            .annotation(TaskTopology.AFFINITY, "ps,worker;ps,chief")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps;worker,chief")
            .annotation(TaskTopology.TASK_ORDER, "ps,worker,chief,evaluator");

    assertThat(TaskTopology.read(job))
        .isEqualTo(
            new TaskTopology(
                List.of(List.of("ps", "worker"), List.of("ps", "chief")),
                List.of(List.of("ps"), List.of("worker", "chief")),
                List.of("ps", "worker", "chief", "evaluator")));
  }

  @Test
  void read_rolesContainingDashes() throws Exception {
    FakeJob job =
        job("ps-some", "ps-some", "worker-another-some", "chief-kk", "evaluator-tt")
            .annotation(TaskTopology.AFFINITY, "ps-some,worker-another-some;ps-some,chief-kk")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps-some;worker-another-some,chief-kk")
            .annotation(
                TaskTopology.TASK_ORDER, "ps-some,worker-another-some,chief-kk,evaluator-tt");

    TaskTopology t = TaskTopology.read(job);
    assertThat(t.affinity())
        .containsExactly(List.of("ps-some", "worker-another-some"), List.of("ps-some", "chief-kk"));
    assertThat(t.antiAffinity())
        .containsExactly(List.of("ps-some"), List.of("worker-another-some", "chief-kk"));
    assertThat(t.taskOrder())
        .containsExactly("ps-some", "worker-another-some", "chief-kk", "evaluator-tt");
  }

  @Test
  void read_noAnnotations_isNull() throws Exception {
    assertThat(TaskTopology.read(tfJob())).isNull();
  }

  @Test
  void read_onlySomeAnnotations_leavesTheOthersNull() throws Exception {
    TaskTopology t = TaskTopology.read(tfJob().annotation(TaskTopology.TASK_ORDER, "worker"));
    assertThat(t).isEqualTo(new TaskTopology(null, null, List.of("worker")));
  }

  @Test
  void read_invalidAnnotation_namesTheFirstUnknownRole() {
    FakeJob job =
        tfJob()
            .annotation(TaskTopology.AFFINITY, "$%GF$^trtqwrg^")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps;worker,chief;#@FGEW^vfa897bgs;;")
            .annotation(TaskTopology.TASK_ORDER, "ps,worker,chief,evaluator,,,");

    assertThatThrownBy(() -> TaskTopology.read(job))
        .isInstanceOf(TaskTopology.InvalidTopologyException.class)
        .hasMessage("task $%GF$^trtqwrg^ do not exist in job <default/job1>");
  }

  @Test
  void read_unknownRoleInTaskOrder_isInvalid() {
    FakeJob job =
        job("ps", "ps", "worker", "worker")
            .annotation(TaskTopology.AFFINITY, "ps,worker")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps")
            .annotation(TaskTopology.TASK_ORDER, "ps,worker,chief");

    assertThatThrownBy(() -> TaskTopology.read(job))
        .hasMessage("task chief do not exist in job <default/job1>");
  }

  @Test
  void read_duplicatedRoleInAGroup_isInvalid() {
    FakeJob job =
        job("ps", "ps", "worker", "worker")
            .annotation(TaskTopology.AFFINITY, "ps,worker")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps,ps")
            .annotation(TaskTopology.TASK_ORDER, "ps,worker");

    assertThatThrownBy(() -> TaskTopology.read(job))
        .hasMessage("task ps is duplicated in job <default/job1>");
  }

  @Test
  void read_sameRoleInDifferentGroups_isValid() throws Exception {
    FakeJob job = job("ps", "worker").annotation(TaskTopology.AFFINITY, "ps;ps,worker");
    assertThat(TaskTopology.read(job).affinity())
        .containsExactly(List.of("ps"), List.of("ps", "worker"));
  }

  @Test
  void read_redundantPunctuation_keepsEmptyRoles() throws Exception {
    FakeJob job =
        tfJob()
            .annotation(TaskTopology.AFFINITY, "ps,worker;ps,,chief,;")
            .annotation(TaskTopology.ANTI_AFFINITY, "ps;worker,chief;;;")
            .annotation(TaskTopology.TASK_ORDER, "ps,worker,chief,evaluator,,,");

    assertThat(TaskTopology.read(job))
        .isEqualTo(
            new TaskTopology(
                List.of(List.of("ps", "worker"), List.of("ps", "", "chief", ""), List.of("")),
                List.of(
                    List.of("ps"),
                    List.of("worker", "chief"),
                    List.of(""),
                    List.of(""),
                    List.of("")),
                List.of("ps", "worker", "chief", "evaluator", "", "", "")));
  }

  @Test
  void read_roleFromALabel_isAKnownRole() throws Exception {
    FakeJob job = new FakeJob("default/job1");
    job.task("a").label("volcano.sh/task-spec", "ps");
    assertThat(TaskTopology.read(job.annotation(TaskTopology.AFFINITY, "ps"))).isNotNull();
  }

  @Test
  void split_behavesLikeGo() {
    assertThat(TaskTopology.split("", ';')).containsExactly("");
    assertThat(TaskTopology.split("a;", ';')).containsExactly("a", "");
    assertThat(TaskTopology.split(";a;;b", ';')).containsExactly("", "a", "", "b");
  }
}
