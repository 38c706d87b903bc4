package dev.caldera.plugins.priority;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's {@code priority} plugin: higher task and job priority first; preempts only lower
 * priorities; a job starves while some of its tasks are not placed.
 */
public final class PriorityPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "priority";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    extensions.add(ExtensionPoint.TASK_ORDER, (l, r) -> higherFirst(l.priority(), r.priority()));
    extensions.add(ExtensionPoint.JOB_ORDER, (l, r) -> higherFirst(l.priority(), r.priority()));
    extensions.add(ExtensionPoint.PREEMPTABLE, (p, c) -> preemptable(session, p, c));
    extensions.add(ExtensionPoint.JOB_STARVING, PriorityPlugin::starving);
  }

  private static int higherFirst(int l, int r) {
    return Integer.compare(r, l);
  }

  /**
   * Candidates of other jobs with a lower job priority, and candidates of the preemptor's own job
   * with a lower task priority; candidates whose job is gone are skipped.
   */
  static Victims preemptable(Session session, TaskInfo preemptor, List<TaskInfo> candidates) {
    JobInfo preemptorJob = session.job(preemptor.jobId());
    if (preemptorJob == null) {
      return Victims.permit(List.of());
    }
    List<TaskInfo> victims = new ArrayList<>();
    for (TaskInfo candidate : candidates) {
      JobInfo job = session.job(candidate.jobId());
      if (job == null) {
        continue;
      }
      boolean lower =
          job.uid().equals(preemptorJob.uid())
              ? candidate.priority() < preemptor.priority()
              : job.priority() < preemptorJob.priority();
      if (lower) {
        victims.add(candidate);
      }
    }
    return Victims.permit(victims);
  }

  /** Some task is neither ready nor waiting. */
  static boolean starving(JobInfo job) {
    return job.readyTaskNum() + job.waitingTaskNum() < job.tasks().size();
  }
}
