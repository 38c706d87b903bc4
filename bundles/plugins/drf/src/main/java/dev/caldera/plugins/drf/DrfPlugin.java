package dev.caldera.plugins.drf;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code drf} plugin: jobs with a smaller dominant share go first, and a preemptor may
 * evict tasks of jobs whose share stays at least its own. With {@code enableHierarchy} it also
 * orders and reclaims across queues by hierarchical DRF.
 */
public final class DrfPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "drf";

  /** Preemptable's tolerance when comparing shares. */
  static final double SHARE_DELTA = 0.000001;

  static final String HIERARCHY_ANNOTATION = "volcano.sh/hierarchy";
  static final String WEIGHTS_ANNOTATION = "volcano.sh/hierarchy-weights";

  private final DrfArguments arguments;
  private Session session;
  private DominantShare shares;
  private final Map<String, JobAttr> jobAttrs = new HashMap<>();
  private final Map<String, String[][]> queuePaths = new HashMap<>();
  private HierarchyTree tree;

  public DrfPlugin(DrfArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    this.shares = new DominantShare(Resource.copyOf(session.totalResource()));
    boolean hierarchy = arguments.hierarchyEnabled();
    if (hierarchy) {
      tree = new HierarchyTree(shares);
    }
    for (JobInfo job : session.jobs()) {
      JobAttr attr = new JobAttr(Resource.copyOf(job.allocated()));
      attr.updateShare(shares);
      jobAttrs.put(job.uid(), attr);
      if (hierarchy) {
        QueueInfo queue = session.queue(job.queue());
        if (queue != null) {
          tree.totalAllocated.add(attr.allocated);
          String[][] path = pathOf(queue);
          tree.attach(job, attr, path[0], path[1]);
        }
      }
    }
    if (hierarchy) {
      // Volcano recomputes after each attach; only the last recomputation survives.
      tree.recompute();
    }

    extensions.add(ExtensionPoint.PREEMPTABLE, this::preemptable);
    if (hierarchy) {
      extensions.add(ExtensionPoint.QUEUE_ORDER, this::compareQueues);
      extensions.add(ExtensionPoint.RECLAIMABLE, this::reclaimable);
    }
    extensions.add(ExtensionPoint.JOB_ORDER, this::compareJobs);
    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            onChange(task, true);
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            onChange(task, false);
          }
        });
  }

  /** The job's dominant share, or 0 for an unknown job. */
  double share(String jobUid) {
    JobAttr attr = jobAttrs.get(jobUid);
    return attr == null ? 0 : attr.share;
  }

  private int compareJobs(JobInfo l, JobInfo r) {
    double ls = share(l.uid());
    double rs = share(r.uid());
    if (ls == rs) {
      return 0;
    }
    return ls < rs ? -1 : 1;
  }

  /**
   * Candidates, in input order, whose job's share after losing them (and the victims before them)
   * is still at least the preemptor job's share with the preemptor placed, within {@link
   * #SHARE_DELTA}.
   */
  private Victims preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    JobAttr preemptorAttr = jobAttrs.get(preemptor.jobId());
    if (preemptorAttr == null) {
      return Victims.permit(List.of());
    }
    double ls = shares.of(preemptorAttr.allocated.copy().add(preemptor.resreq()));
    Map<String, Resource> allocations = new HashMap<>();
    List<TaskInfo> victims = new ArrayList<>();
    for (TaskInfo candidate : candidates) {
      Resource allocation = allocations.get(candidate.jobId());
      if (allocation == null) {
        JobAttr attr = jobAttrs.get(candidate.jobId());
        if (attr == null) {
          continue;
        }
        allocation = attr.allocated.copy();
        allocations.put(candidate.jobId(), allocation);
      }
      double rs = shares.of(allocation.sub(candidate.resreq()));
      if (ls < rs || Math.abs(ls - rs) <= SHARE_DELTA) {
        victims.add(candidate);
      }
    }
    return Victims.permit(victims);
  }

  private void onChange(TaskInfo task, boolean allocated) {
    JobInfo job = session.job(task.jobId());
    JobAttr attr = job == null ? null : jobAttrs.get(job.uid());
    if (attr == null) {
      return;
    }
    if (allocated) {
      attr.allocated.add(task.resreq());
    } else {
      attr.allocated.sub(task.resreq());
    }
    attr.updateShare(shares);
    if (tree != null) {
      QueueInfo queue = session.queue(job.queue());
      if (queue != null) {
        if (allocated) {
          tree.totalAllocated.add(task.resreq());
        } else {
          tree.totalAllocated.sub(task.resreq());
        }
        String[][] path = pathOf(queue);
        tree.update(job, attr, path[0], path[1]);
      }
    }
  }

  // ------------------------------------------------------------ hierarchical mode

  private int compareQueues(QueueInfo l, QueueInfo r) {
    double ret = tree.compare(pathOf(l)[0], pathOf(r)[0]);
    return ret < 0 ? -1 : ret > 0 ? 1 : 0;
  }

  /**
   * With the reclaimer placed, each candidate whose removal would leave the reclaimer's queue
   * ordered strictly before the candidate's queue.
   */
  private Victims reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    JobInfo reclaimerJob = session.job(reclaimer.jobId());
    QueueInfo reclaimerQueue = reclaimerJob == null ? null : session.queue(reclaimerJob.queue());
    JobAttr attr = reclaimerJob == null ? null : jobAttrs.get(reclaimerJob.uid());
    if (reclaimerQueue == null || attr == null) {
      return Victims.permit(List.of());
    }
    HierarchyTree whatIf = tree.copy();
    String[][] lPath = pathOf(reclaimerQueue);
    JobAttr lattr = new JobAttr(attr.allocated.copy().add(reclaimer.resreq()));
    lattr.updateShare(shares);
    whatIf.totalAllocated.add(reclaimer.resreq());
    whatIf.update(reclaimerJob, lattr, lPath[0], lPath[1]);

    List<TaskInfo> victims = new ArrayList<>();
    for (TaskInfo candidate : candidates) {
      JobInfo job = session.job(candidate.jobId());
      QueueInfo queue = job == null ? null : session.queue(job.queue());
      JobAttr jobAttr = job == null ? null : jobAttrs.get(job.uid());
      if (queue == null || jobAttr == null) {
        continue;
      }
      String[][] rPath = pathOf(queue);
      JobAttr rattr = new JobAttr(jobAttr.allocated.copy().sub(candidate.resreq()));
      rattr.updateShare(shares);
      whatIf.totalAllocated.sub(candidate.resreq());
      whatIf.update(job, rattr, rPath[0], rPath[1]);
      double ret = whatIf.compare(lPath[0], rPath[0]);

      whatIf.totalAllocated.add(candidate.resreq());
      rattr.allocated.add(candidate.resreq());
      rattr.updateShare(shares);
      whatIf.update(job, rattr, rPath[0], rPath[1]);
      if (ret < 0) {
        victims.add(candidate);
      }
    }
    return Victims.permit(victims);
  }

  /** The queue's hierarchy path and weights, split on "/" as Go does (empty parts kept). */
  private String[][] pathOf(QueueInfo queue) {
    return queuePaths.computeIfAbsent(
        queue.name(),
        k -> {
          Map<String, String> annotations = queue.queue().metadata().annotations();
          return new String[][] {
            annotations.getOrDefault(HIERARCHY_ANNOTATION, "").split("/", -1),
            annotations.getOrDefault(WEIGHTS_ANNOTATION, "").split("/", -1)
          };
        });
  }
}
