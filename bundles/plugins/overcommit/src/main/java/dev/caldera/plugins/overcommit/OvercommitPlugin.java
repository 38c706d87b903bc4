package dev.caldera.plugins.overcommit;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's {@code overcommit} plugin: the enqueue action admits a job while the minimum requests
 * of admitted jobs plus its own stay within {@code total × overcommit-factor − used}, compared only
 * on the dimensions the job requests. Jobs without {@code minResources} are always admitted.
 */
public final class OvercommitPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "overcommit";

  private final OvercommitArguments arguments;
  private Session session;
  private Resource idle;
  private Resource inqueue;

  public OvercommitPlugin(OvercommitArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    Resource used = Resource.empty();
    for (NodeInfo node : session.nodes()) {
      used.add(node.used());
    }
    idle = Resource.copyOf(session.totalResource()).multiply(arguments.factor()).sub(used);
    inqueue = Resource.empty();
    for (JobInfo job : session.jobs()) {
      inqueue.add(reserved(job));
    }
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, this::enqueueable);
    extensions.add(ExtensionPoint.JOB_ENQUEUED, this::enqueued);
  }

  /** The cluster's overcommitted idle resources at session open. */
  Resource idle() {
    return idle.copy();
  }

  /** What admitted jobs still hold in reserve. */
  Resource inqueue() {
    return inqueue.copy();
  }

  /**
   * What a job holds in reserve at session open: an Inqueue job its whole minimum, a Running job
   * with at least {@code minMember} allocated tasks the part of its minimum not yet allocated (a
   * finished driver leaves its pod group Running, and its minimum must not be reserved again).
   */
  private static ResourceView reserved(JobInfo job) {
    ResourceView min = job.minResources();
    if (min == null) {
      return Resource.empty();
    }
    PodGroupPhase phase = PodGroupPhase.parse(job.podGroup().phase());
    if (phase == PodGroupPhase.Inqueue) {
      return job.deductSchedulingGated(Resource.copyOf(min));
    }
    if (phase == PodGroupPhase.Running && allocatedTaskNum(job) >= job.minAvailable()) {
      return job.inqueueResources();
    }
    return Resource.empty();
  }

  private static int allocatedTaskNum(JobInfo job) {
    return job.taskCount(TaskStatus.ALLOCATED)
        + job.taskCount(TaskStatus.BINDING)
        + job.taskCount(TaskStatus.BOUND)
        + job.taskCount(TaskStatus.RUNNING);
  }

  Vote enqueueable(JobInfo job) {
    ResourceView min = job.minResources();
    if (min == null) {
      return Vote.PERMIT;
    }
    List<String> overused =
        inqueue.copy().add(min).lessEqualWithDimensionAndResourcesName(idle, min);
    if (overused.isEmpty()) {
      return Vote.PERMIT;
    }
    session.recordEvent(
        "PodGroup", job.uid(), "Normal", "Unschedulable", overusedMessage(overused));
    List<Blocker.Figure> figures = Blocker.figures(overused, min, inqueue, idle, IDLE);
    session.reportBlocker(job, Blocker.of(Blocker.Stage.ENQUEUE, blockerMessage(figures), figures));
    return Vote.REJECT;
  }

  void enqueued(JobInfo job) {
    ResourceView min = job.minResources();
    if (min != null) {
      inqueue.add(job.deductSchedulingGated(Resource.copyOf(min)));
    }
  }

  /** What the figures' limit is: the cluster total × factor, less what is in use. */
  static final String IDLE = "overcommitted idle";

  /**
   * {@code minimum over the cluster's overcommitted idle: cpu requested 4, admitted 8 of
   * overcommitted idle 10}: the figures for a person.
   */
  static String blockerMessage(List<Blocker.Figure> figures) {
    StringBuilder sb =
        new StringBuilder("minimum over the cluster's overcommitted idle (total × factor − used)");
    String sep = ": ";
    for (Blocker.Figure f : figures) {
      sb.append(sep)
          .append(f.resource())
          .append(" requested ")
          .append(Blocker.Figure.format(f.requested()))
          .append(", admitted ")
          .append(Blocker.Figure.format(f.allocated()))
          .append(" of ")
          .append(Blocker.Figure.format(f.limit()));
      sep = "; ";
    }
    return sb.toString();
  }

  /** {@code util.FormatResourceNames("resource in cluster is overused", "overused", names)}. */
  static String overusedMessage(List<String> names) {
    String prefix = "resource in cluster is overused";
    if (names.isEmpty()) {
      return prefix;
    }
    List<String> parts = new ArrayList<>(names.size());
    for (String n : names) {
      parts.add("overused " + n);
    }
    return prefix + ": " + String.join(", ", parts);
  }
}
