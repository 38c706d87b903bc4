package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeTask;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailedRolesTest {

  private static FakeJob job(int minMember) {
    return new FakeJob("ns/job").minMember(minMember);
  }

  @Test
  void needContinueAllocating_stopsWhenEveryTaskIsNeeded() {
    FakeJob job = job(3);
    job.task("p-0").requests("cpu", "1");
    job.task("p-1").requests("cpu", "1");
    job.task("p-2").requests("cpu", "1");

    assertThat(FailedRoles.needContinueAllocating(job, Set.of())).isFalse();
    assertThat(FailedRoles.needContinueAllocating(job, Set.of(""))).isFalse();
  }

  @Test
  void needContinueAllocating_goesOnForElasticJobWithoutRoleMinimums() {
    FakeJob job = job(2);
    job.task("p-0").requests("cpu", "1");
    job.task("p-1").requests("cpu", "1");
    job.task("p-2").requests("cpu", "1");

    assertThat(FailedRoles.needContinueAllocating(job, Set.of(""))).isTrue();
  }

  @Test
  void needContinueAllocating_belowRoleSum_countsReadyAndPendingOfRolesThatDidNotFail() {
    FakeJob job = job(3).minTaskMember("ps", 2).minTaskMember("worker", 2);
    job.task("ps-0").role("ps").requests("cpu", "1").status(TaskStatus.RUNNING);
    job.task("ps-1").role("ps").requests("cpu", "1");
    job.task("w-0").role("worker").requests("cpu", "1");
    job.task("w-1").role("worker").requests("cpu", "1");

    // ready 1 + pending workers 2 reach minMember 3
    assertThat(FailedRoles.needContinueAllocating(job, Set.of("ps"))).isTrue();
    // ready 1 + pending ps 1 do not
    assertThat(FailedRoles.needContinueAllocating(job, Set.of("worker"))).isFalse();
  }

  @Test
  void needContinueAllocating_stopsWhenFailedRoleHasFewerAllocatedThanItsMinimum() {
    FakeJob job = job(4).minTaskMember("ps", 1).minTaskMember("worker", 3);
    job.task("ps-0").role("ps").requests("cpu", "1").status(TaskStatus.RUNNING);
    job.task("w-0").role("worker").requests("cpu", "1").status(TaskStatus.RUNNING);
    job.task("w-1").role("worker").requests("cpu", "1");
    job.task("w-2").role("worker").requests("cpu", "1");
    job.task("w-3").role("worker").requests("cpu", "1");

    assertThat(FailedRoles.needContinueAllocating(job, Set.of("worker"))).isFalse();
    assertThat(FailedRoles.needContinueAllocating(job, Set.of("ps"))).isTrue();
    assertThat(FailedRoles.needContinueAllocating(job, Set.of())).isTrue();
  }

  @Test
  void needContinueAllocating_countsPendingTasksWithoutRequestsAsAllocated() {
    FakeJob job = job(3).minTaskMember("worker", 3);
    job.task("w-0").role("worker").requests("cpu", "1").status(TaskStatus.RUNNING);
    job.task("w-1").role("worker").requests("cpu", "1").status(TaskStatus.SUCCEEDED);
    job.task("w-2").role("worker");
    job.task("w-3").role("worker").requests("cpu", "1");

    assertThat(FailedRoles.needContinueAllocating(job, Set.of("worker"))).isTrue();
  }

  @Test
  void roleFailed_seesSessionFitErrorsOfTheSameRoleOnly() {
    FakeActionSession session = new FakeActionSession();
    FakeJob job = session.addJob("ns/job", "q", 1);
    FakeTask ps0 = job.task("ps-0").role("ps");
    FakeTask ps1 = job.task("ps-1").role("ps");
    FakeTask w0 = job.task("w-0").role("worker");
    FakeTask a = job.task("a");
    FakeTask b = job.task("b");
    session.recordFitError(ps0, "n1", Status.unschedulable("x"));
    session.recordFitError(a, "n1", Status.unschedulable("x"));
    FailedRoles roles = new FailedRoles(session);

    assertThat(roles.roleFailed(job, ps1)).isTrue();
    assertThat(roles.roleFailed(job, w0)).isFalse();
    assertThat(roles.roleFailed(job, b)).as("tasks without a role never share failures").isFalse();

    roles.failed(job, w0);
    assertThat(roles.roleFailed(job, job.task("w-1").role("worker"))).isTrue();
  }
}
