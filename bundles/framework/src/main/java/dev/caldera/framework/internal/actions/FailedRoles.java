package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Per job, the roles of tasks that have fit errors this session ({@code job.FitFailedRoles}), and
 * the decisions built on them: {@code TaskHasFitErrors} and {@code NeedContinueAllocating}. A job's
 * set is read from the session on first use and then kept up to date by {@link #failed}.
 */
final class FailedRoles {

  private final ActionSession session;
  private final Map<String, Set<String>> byJob = new HashMap<>();

  FailedRoles(ActionSession session) {
    this.session = session;
  }

  /** The roles of the job's tasks that failed this session. */
  Set<String> of(JobInfo job) {
    return byJob.computeIfAbsent(
        job.uid(),
        uid -> {
          Set<String> roles = new HashSet<>();
          for (TaskInfo t : job.tasks()) {
            if (session.hasFitErrors(t)) {
              roles.add(t.taskRole());
            }
          }
          return roles;
        });
  }

  /** Notes that the task just got fit errors. */
  void failed(JobInfo job, TaskInfo task) {
    of(job).add(task.taskRole());
  }

  /**
   * {@code TaskHasFitErrors}: a task with a role whose role already failed in the job; a task
   * without a role never counts.
   */
  boolean roleFailed(JobInfo job, TaskInfo task) {
    return !task.taskRole().isEmpty() && of(job).contains(task.taskRole());
  }

  /** {@code NeedContinueAllocating} for the job's default sub-job. */
  boolean needContinueAllocating(JobInfo job) {
    return needContinueAllocating(job, of(job));
  }

  /**
   * {@code NeedContinueAllocating}: whether allocation should go on with the job's other tasks
   * after a task found no node. It stops when every task is needed ({@code minMember ≥ #tasks});
   * when {@code minMember} is below the sum of the role minimums, it goes on while the ready tasks
   * plus the pending tasks of roles that have not failed can still reach {@code minMember};
   * otherwise it stops when a failed role with a minimum has fewer allocated tasks than that
   * minimum.
   */
  static boolean needContinueAllocating(JobInfo job, Set<String> failedRoles) {
    int minAvailable = job.minAvailable();
    if (minAvailable >= job.tasks().size()) {
      return false;
    }
    if (minAvailable < job.taskMinAvailableTotal()) {
      int left = 0;
      for (TaskInfo t : job.tasks()) {
        if (t.status() == TaskStatus.PENDING && !failedRoles.contains(t.taskRole())) {
          left++;
        }
      }
      return job.readyTaskNum() + left >= minAvailable;
    }
    Map<String, Integer> minimums = job.taskMinAvailable();
    Map<String, Integer> allocated = null;
    for (String role : failedRoles) {
      int min = minimums.getOrDefault(role, 0);
      if (min == 0) {
        continue;
      }
      if (allocated == null) {
        allocated = allocatedByRole(job);
      }
      if (allocated.getOrDefault(role, 0) < min) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code getJobAllocatedRoles}: allocated or succeeded tasks, and pending ones asking nothing.
   */
  private static Map<String, Integer> allocatedByRole(JobInfo job) {
    Map<String, Integer> counts = new HashMap<>();
    for (TaskInfo t : job.tasks()) {
      TaskStatus s = t.status();
      if (s.isAllocated()
          || s == TaskStatus.SUCCEEDED
          || (s == TaskStatus.PENDING && t.initResreq().isEmpty())) {
        counts.merge(t.taskRole(), 1, Integer::sum);
      }
    }
    return counts;
  }
}
