package dev.caldera.plugins.gang;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code gang} plugin: a job runs only once {@code minMember} of its tasks can, and
 * eviction never takes a job below {@code minMember}. At session close it marks each job's pod
 * group Unschedulable or Scheduled.
 */
public final class GangPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "gang";

  static final String NOT_ENOUGH_PODS_OF_TASK = "NotEnoughPodsOfTask";
  static final String NOT_ENOUGH_TASKS = "NotEnoughTasks";
  static final String UNSCHEDULABLE = "Unschedulable";
  static final String SCHEDULED = "Scheduled";
  static final String NOT_ENOUGH_RESOURCES = "NotEnoughResources";
  static final String READY_REASON = "tasks in gang are ready to be scheduled";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    extensions.add(ExtensionPoint.JOB_VALID, GangPlugin::validate);
    extensions.add(ExtensionPoint.PREEMPTABLE, (p, c) -> evictable(session, c));
    extensions.add(ExtensionPoint.RECLAIMABLE, (p, c) -> evictable(session, c));
    extensions.add(ExtensionPoint.JOB_ORDER, GangPlugin::compareReadiness);
    extensions.add(ExtensionPoint.JOB_READY, job -> job.checkTaskReady() && job.isReady());
    extensions.add(
        ExtensionPoint.JOB_PIPELINED,
        job -> job.checkTaskPipelined() && job.isPipelined() ? Vote.PERMIT : Vote.REJECT);
    extensions.add(ExtensionPoint.JOB_STARVING, JobInfo::isStarving);
  }

  /** The first failing gang check, or null when the job is valid. */
  static ValidationResult validate(JobInfo job) {
    if (!job.checkTaskValid()) {
      return new ValidationResult(
          false, NOT_ENOUGH_PODS_OF_TASK, "Not enough valid pods of each task for gang-scheduling");
    }
    int valid = job.validTaskNum();
    if (valid < job.minAvailable()) {
      return new ValidationResult(
          false,
          NOT_ENOUGH_TASKS,
          "Not enough valid tasks for gang-scheduling, valid: "
              + valid
              + ", min: "
              + job.minAvailable());
    }
    return null;
  }

  /**
   * Candidates, in input order, whose job keeps more than {@code minMember} ready tasks after the
   * victims taken before them.
   */
  static Victims evictable(Session session, List<TaskInfo> candidates) {
    List<TaskInfo> victims = new ArrayList<>();
    Map<String, Integer> occupied = new HashMap<>();
    for (TaskInfo candidate : candidates) {
      JobInfo job = session.job(candidate.jobId());
      if (job == null) {
        continue;
      }
      int ready = occupied.computeIfAbsent(job.uid(), k -> job.readyTaskNum());
      if (ready > job.minAvailable()) {
        occupied.put(job.uid(), ready - 1);
        victims.add(candidate);
      }
    }
    return Victims.permit(victims);
  }

  /** Jobs that are not ready yet go first. */
  static int compareReadiness(JobInfo l, JobInfo r) {
    boolean lReady = l.isReady();
    boolean rReady = r.isReady();
    if (lReady == rReady) {
      return 0;
    }
    return lReady ? 1 : -1;
  }

  @Override
  public void onSessionClose(Session session) {
    for (JobInfo job : session.jobs()) {
      List<TaskInfo> tasks = job.tasks();
      if (tasks.isEmpty()) {
        continue;
      }
      if (!job.isReady() && !shortOnlyByReleasing(job, tasks)) {
        int unready = job.minAvailable() - schedulableTaskNum(session, job, tasks);
        String message =
            unready
                + "/"
                + tasks.size()
                + " tasks in gang unschedulable: "
                + session.jobFitError(job);
        session.setPodGroupCondition(
            job, new PodCondition(UNSCHEDULABLE, "True", NOT_ENOUGH_RESOURCES, message));
      } else {
        session.setPodGroupCondition(job, new PodCondition(SCHEDULED, "True", READY_REASON, ""));
      }
    }
  }

  /**
   * Whether the job misses readiness only because scheduled pods are being released: it has such
   * pods, nothing Pending or Pipelined, and scheduled plus releasing pods reach {@code minMember}.
   */
  private static boolean shortOnlyByReleasing(JobInfo job, List<TaskInfo> tasks) {
    int scheduled = 0;
    int scheduledReleasing = 0;
    for (TaskInfo t : tasks) {
      TaskStatus s = t.status();
      if (s.isScheduled()) {
        scheduled++;
      } else if (s == TaskStatus.RELEASING && !t.nodeName().isEmpty()) {
        scheduledReleasing++;
      } else if (s == TaskStatus.PENDING || s == TaskStatus.PIPELINED) {
        return false;
      }
    }
    return scheduledReleasing > 0 && scheduled + scheduledReleasing >= job.minAvailable();
  }

  /** Ready tasks plus Pending tasks whose last (discarded) transaction had allocated them. */
  private static int schedulableTaskNum(Session session, JobInfo job, List<TaskInfo> tasks) {
    int n = job.readyTaskNum();
    for (TaskInfo t : tasks) {
      if (t.status() == TaskStatus.PENDING && session.lastTransactionStatus(t).isAllocated()) {
        n++;
      }
    }
    return n;
  }
}
