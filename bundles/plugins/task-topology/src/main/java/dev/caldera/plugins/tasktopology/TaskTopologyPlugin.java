package dev.caldera.plugins.tasktopology;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.Dimension;
import dev.caldera.support.resource.Resource;
import java.util.HashMap;
import java.util.Map;

/**
 * Volcano's {@code task-topology} plugin. A job's PodGroup annotations say which roles ({@code
 * volcano.sh/task-spec}) attract or repel each other and in which order they start; the plugin
 * groups the job's tasks into buckets meant to share a node, orders tasks bucket by bucket, and
 * scores nodes by how much of the task's bucket is or could be placed there.
 */
public final class TaskTopologyPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "task-topology";

  /** Kubernetes' {@code MaxNodeScore}. */
  private static final double MAX_NODE_SCORE = 100;

  private final TaskTopologyArguments arguments;
  private Map<String, JobManager> managers = Map.of();

  public TaskTopologyPlugin(TaskTopologyArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    Map<String, JobManager> built = new HashMap<>();
    for (JobInfo job : session.jobs()) {
      JobManager manager = manager(job);
      if (manager != null) {
        built.put(job.uid(), manager);
      }
    }
    managers = built;

    extensions.add(ExtensionPoint.TASK_ORDER, this::compare);
    extensions.add(ExtensionPoint.NODE_ORDER, this::score);
    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            JobManager manager = managers.get(task.jobId());
            if (manager != null) {
              manager.bound(task);
            }
            return Status.OK;
          }
        });
  }

  @Override
  public void onSessionClose(Session session) {
    managers = Map.of();
  }

  /**
   * {@code initBucket} for one job: null when it has no pending task, no topology annotation or an
   * invalid one (Volcano logs and skips those).
   */
  static JobManager manager(JobInfo job) {
    if (job.taskCount(TaskStatus.PENDING) == 0) {
      return null;
    }
    TaskTopology topology;
    try {
      topology = TaskTopology.read(job);
    } catch (TaskTopology.InvalidTopologyException e) {
      return null;
    }
    if (topology == null) {
      return null;
    }
    JobManager manager = new JobManager();
    manager.apply(topology);
    manager.construct(job.tasks());
    return manager;
  }

  /**
   * The task order: tasks in a bucket before tasks outside one (across jobs too, if both jobs have
   * a topology); within a job, the bucket with more pending tasks first, then the older bucket;
   * within a bucket, higher rank and role priority first.
   */
  int compare(TaskInfo l, TaskInfo r) {
    JobManager lm = managers.get(l.jobId());
    JobManager rm = managers.get(r.jobId());
    if (lm == null || rm == null) {
      return 0;
    }
    Bucket lb = lm.bucketOf(l);
    Bucket rb = rm.bucketOf(r);
    if ((lb != null) != (rb != null)) {
      return lb != null ? -1 : 1;
    }
    if (!l.jobId().equals(r.jobId()) || lb == null) {
      return 0;
    }
    if (lb.tasks.size() != rb.tasks.size()) {
      return lb.tasks.size() > rb.tasks.size() ? -1 : 1;
    }
    if (lb.index == rb.index) {
      return -lm.affinityOrder(l, r);
    }
    return lb.index < rb.index ? -1 : 1;
  }

  /**
   * The node order ({@code calcBucketScore}), scaled by the weight and by {@code 100 /
   * bucketMaxSize}: 0 outside a bucket or when the task alone does not fit {@code Idle +
   * Releasing}; else the bucket's tasks placed on the node, less the anti-affinity of the roles
   * placed there, plus the bucket's pending tasks, less one for each other pending task that must
   * be left out (in joining order) until the rest of the bucket fits.
   */
  double score(TaskInfo task, NodeInfo node) {
    JobManager manager = managers.get(task.jobId());
    if (manager == null) {
      return 0;
    }
    Bucket bucket = manager.bucketOf(task);
    if (bucket == null) {
      return 0;
    }
    Resource max = Resource.copyOf(node.idle()).add(node.releasing());
    if (max.lessPartly(task.resreq(), Dimension.ZERO)) {
      return 0;
    }
    int score = bucket.nodes.getOrDefault(node.name(), 0);
    Map<String, Integer> placedRoles = manager.nodeRoles.get(node.name());
    if (placedRoles != null) {
      int affinity = manager.affinityWith(JobManager.roleOf(task), placedRoles, true);
      if (affinity < 0) {
        score += affinity;
      }
    }
    score += bucket.tasks.size();
    if (!bucket.request.lessEqual(max, Dimension.ZERO)) {
      Resource remains = bucket.request.copy();
      for (Map.Entry<String, TaskInfo> e : bucket.tasks.entrySet()) {
        if (e.getKey().equals(task.uid())) {
          continue;
        }
        remains.sub(e.getValue().resreq());
        score--;
        if (remains.lessEqual(max, Dimension.ZERO)) {
          break;
        }
      }
    }
    double scaled = (double) score * arguments.weight();
    if (manager.bucketMaxSize != 0) {
      scaled = scaled * MAX_NODE_SCORE / manager.bucketMaxSize;
    }
    return scaled;
  }
}
