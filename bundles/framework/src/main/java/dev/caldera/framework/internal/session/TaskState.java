package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.CycleState;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.placement.PodPlacements;
import dev.caldera.support.resource.Resource;
import java.time.Instant;

/** A task in a session: the pod plus the scheduler's status and placement of it. */
final class TaskState implements TaskInfo {

  private final Pod pod;

  /** {@code pod.metadata().uid()}, held here: tasks are sorted by it in every job every session. */
  private final String uid;

  private final String jobId;
  private final Resource resreq;
  private final int priority;
  private final boolean preemptable;
  private final boolean bestEffort;
  private final String taskRole;
  private final boolean gated;
  private final int podIndex;

  TaskStatus status;
  private volatile CycleState cycleState;
  String nodeName;
  boolean evictionOccurred;

  /**
   * Status and node before the last discarded operation ({@code LastTransaction}); null if none.
   */
  TaskStatus lastStatus;

  String lastNodeName;

  /**
   * Whether this session changed the task (status, node, last transaction, scratch state): the next
   * session cannot take it as it opened ({@link CarriedStates}).
   */
  private boolean touched;

  /** Parsed on first use; the parse is pure, so racing threads at worst parse twice. */
  private volatile PodPlacement placement;

  /** {@code pod.key()}, the digest's. */
  private final String key;

  /** A task of {@code pod}, which is within {@link ResourceBounds}, read by {@code digest}. */
  TaskState(Pod pod, PodDigests.Digest digest) {
    this.pod = pod;
    this.uid = pod.metadata().uid();
    this.key = digest.key();
    PodFacts facts = digest.facts();
    this.jobId = facts.jobId();
    this.resreq = digest.request(); // shared with the digest: never changed, only read
    this.bestEffort = resreq.isEmpty();
    this.priority = facts.priority();
    this.preemptable = facts.preemptable();
    this.taskRole = facts.taskRole();
    this.gated = facts.schedulingGated();
    this.podIndex = digest.podIndex();
    this.status = facts.status();
    this.nodeName = pod.nodeName();
  }

  /** The numeric last dash-separated segment of a name with at least three segments, else -1. */
  static int podIndex(String name) {
    // As name.split("-") counts segments (trailing empty ones dropped), without the array.
    int end = name.length();
    while (end > 0 && name.charAt(end - 1) == '-') {
      end--;
    }
    int dashes = 0;
    for (int i = 0; i < end; i++) {
      if (name.charAt(i) == '-') {
        dashes++;
      }
    }
    if (end == 0 || dashes < 2) {
      return -1;
    }
    try {
      return Integer.parseInt(name, name.lastIndexOf('-', end - 1) + 1, end, 10);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  int podIndex() {
    return podIndex;
  }

  void setStatus(TaskStatus status) {
    this.status = status;
    touched = true;
  }

  void setNodeName(String nodeName) {
    this.nodeName = nodeName;
    touched = true;
  }

  void setEvictionOccurred(boolean evictionOccurred) {
    this.evictionOccurred = evictionOccurred;
    touched = true;
  }

  /** {@code LastTransaction}: the status and node before a discarded operation, or nulls. */
  void setLastTransaction(TaskStatus status, String nodeName) {
    this.lastStatus = status;
    this.lastNodeName = nodeName;
    touched = true;
  }

  boolean touched() {
    return touched;
  }

  @Override
  public PodPlacement placement() {
    PodPlacement p = placement;
    if (p == null) {
      p = PodPlacements.of(pod);
      placement = p;
    }
    return p;
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public String name() {
    return pod.name();
  }

  @Override
  public String namespace() {
    return pod.namespace();
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public String jobId() {
    return jobId;
  }

  @Override
  public Pod pod() {
    return pod;
  }

  @Override
  public TaskStatus status() {
    return status;
  }

  @Override
  public String nodeName() {
    return nodeName;
  }

  /** The task's scratch state for this session (a task given one is not carried to the next). */
  CycleState cycleState() {
    CycleState state = cycleState;
    if (state == null) {
      synchronized (this) {
        state = cycleState;
        if (state == null) {
          state = new CycleStateImpl();
          cycleState = state;
          touched = true;
        }
      }
    }
    return state;
  }

  /**
   * The request itself, for the session's own arithmetic, which must not change it: it is the
   * digest's, shared with the pod's tasks of other sessions (views hand out its read-only face).
   */
  Resource request() {
    return resreq;
  }

  @Override
  public ResourceView resreq() {
    return resreq.view();
  }

  @Override
  public ResourceView initResreq() {
    return resreq.view();
  }

  @Override
  public int priority() {
    return priority;
  }

  @Override
  public boolean preemptable() {
    return preemptable;
  }

  @Override
  public boolean bestEffort() {
    return bestEffort;
  }

  @Override
  public String taskRole() {
    return taskRole;
  }

  @Override
  public boolean schedulingGated() {
    return gated;
  }

  @Override
  public Instant creationTimestamp() {
    return pod.metadata().creationTimestamp();
  }

  @Override
  public boolean evictionOccurred() {
    return evictionOccurred;
  }

  @Override
  public String toString() {
    return key() + "(" + status + (nodeName.isEmpty() ? "" : "@" + nodeName) + ")";
  }
}
