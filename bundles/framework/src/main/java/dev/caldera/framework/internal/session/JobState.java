package dev.caldera.framework.internal.session;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodGroupFacts;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A job in a session: a pod group, its tasks and per-status counts ({@code api/job_info.go}). */
final class JobState implements JobInfo {

  private final PodGroup podGroup;

  /** {@code podGroup.key()}, kept: job order and every ledger map look a job up by it. */
  private final String uid;

  private final String queue;
  private final int priority;
  private final boolean preemptable;
  private final Resource minResources;
  private final int taskMinAvailableTotal;
  private final List<TaskState> tasks = new ArrayList<>();
  private final List<TaskInfo> taskView = Collections.unmodifiableList(tasks);
  private final int[] counts = new int[TaskStatus.values().length];
  private final Resource allocated = Resource.empty();
  private final Resource totalRequest = Resource.empty();
  private int pendingBestEffort;
  PodGroupPhase phase;

  /** The phase the pod group has: what {@link #phase} is when the job opens. */
  private final PodGroupPhase openPhase;

  /**
   * The tasks in the order the session added them, before they were sorted; set by {@link #opened}.
   */
  private TaskState[] addedOrder;

  /** Whether a task of the job changed status in this session ({@link CarriedStates}). */
  private boolean touched;

  JobState(PodGroup podGroup, String queue, int priority) {
    this.podGroup = podGroup;
    this.uid = podGroup.key();
    this.queue = queue;
    this.priority = priority;
    PodGroupFacts facts = PodGroupFacts.of(podGroup);
    this.preemptable = facts.preemptable();
    this.minResources =
        podGroup.minResources() == null ? null : Resource.fromList(podGroup.minResources());
    this.taskMinAvailableTotal = facts.taskMinAvailableTotal();
    this.phase = facts.phase();
    this.openPhase = phase;
  }

  void addTask(TaskState task) {
    tasks.add(task);
    totalRequest.add(task.resreq());
    count(task, 1);
  }

  private static final Comparator<TaskState> BY_UID = (a, b) -> a.uid().compareTo(b.uid());

  /** Ends the job's open: its tasks sorted by uid, the order they were added in kept. */
  void opened() {
    addedOrder = tasks.toArray(new TaskState[0]);
    if (tasks.size() > 1) {
      tasks.sort(BY_UID);
    }
  }

  /** The tasks in the order they were added at open. */
  TaskState[] addedOrder() {
    return addedOrder;
  }

  boolean touched() {
    return touched;
  }

  /**
   * Opens the job, untouched in the last session, for the next one: only the phase, which the last
   * one's close may have set, goes back to the pod group's.
   */
  void reopen() {
    phase = openPhase;
  }

  /** Moves a task to a new status, keeping counts and the allocated total right. */
  void setStatus(TaskState task, TaskStatus status) {
    count(task, -1);
    task.setStatus(status);
    touched = true;
    count(task, 1);
  }

  private void count(TaskState task, int delta) {
    counts[task.status.ordinal()] += delta;
    if (task.status.isAllocated()) {
      if (delta > 0) {
        allocated.add(task.resreq());
      } else {
        allocated.sub(task.resreq());
      }
    }
    if (task.status == TaskStatus.PENDING && task.bestEffort()) {
      pendingBestEffort += delta;
    }
  }

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public String name() {
    return podGroup.metadata().name();
  }

  @Override
  public String namespace() {
    return podGroup.metadata().namespace();
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public PodGroup podGroup() {
    return podGroup;
  }

  @Override
  public PodGroupPhase phase() {
    return phase;
  }

  @Override
  public int minAvailable() {
    return podGroup.minMember();
  }

  @Override
  public Map<String, Integer> taskMinAvailable() {
    return podGroup.minTaskMember();
  }

  @Override
  public int taskMinAvailableTotal() {
    return taskMinAvailableTotal;
  }

  @Override
  public int priority() {
    return priority;
  }

  @Override
  public Instant creationTimestamp() {
    return podGroup.metadata().creationTimestamp();
  }

  @Override
  public boolean preemptable() {
    return preemptable;
  }

  @Override
  public List<TaskInfo> tasks() {
    return taskView;
  }

  List<TaskState> taskStates() {
    return tasks;
  }

  @Override
  public int taskCount(TaskStatus status) {
    return counts[status.ordinal()];
  }

  @Override
  public ResourceView allocated() {
    return allocated.view();
  }

  @Override
  public ResourceView totalRequest() {
    return totalRequest.view();
  }

  @Override
  public ResourceView minResources() {
    return minResources == null ? null : minResources.view();
  }

  /** Tasks in an allocated status ({@link TaskStatus#isAllocated}). */
  int allocatedTaskCount() {
    int n = 0;
    for (TaskStatus s : TaskStatus.values()) {
      if (s.isAllocated()) {
        n += counts[s.ordinal()];
      }
    }
    return n;
  }

  @Override
  public int readyTaskNum() {
    return counts[TaskStatus.BOUND.ordinal()]
        + counts[TaskStatus.BINDING.ordinal()]
        + counts[TaskStatus.RUNNING.ordinal()]
        + counts[TaskStatus.ALLOCATED.ordinal()]
        + counts[TaskStatus.SUCCEEDED.ordinal()];
  }

  @Override
  public int waitingTaskNum() {
    return counts[TaskStatus.PIPELINED.ordinal()];
  }

  @Override
  public int pendingBestEffortTaskNum() {
    return pendingBestEffort;
  }

  @Override
  public int validTaskNum() {
    int n = 0;
    for (TaskStatus s : TaskStatus.values()) {
      if (s.isValid()) {
        n += counts[s.ordinal()];
      }
    }
    return n;
  }

  @Override
  public boolean checkTaskValid() {
    return checkRoles(RoleCount.VALID);
  }

  @Override
  public boolean checkTaskReady() {
    return checkRoles(RoleCount.READY);
  }

  @Override
  public boolean checkTaskPipelined() {
    return checkRoles(RoleCount.PIPELINED);
  }

  private enum RoleCount {
    VALID,
    READY,
    PIPELINED
  }

  private boolean checkRoles(RoleCount mode) {
    if (minAvailable() < taskMinAvailableTotal || podGroup.minTaskMember().isEmpty()) {
      return true;
    }
    Map<String, Integer> counted = new HashMap<>();
    for (TaskState t : tasks) {
      TaskStatus s = t.status;
      boolean counts =
          switch (mode) {
            case VALID ->
                s.isAllocated()
                    || s == TaskStatus.SUCCEEDED
                    || s == TaskStatus.PIPELINED
                    || s == TaskStatus.PENDING;
            case READY ->
                s.isAllocated()
                    || s == TaskStatus.SUCCEEDED
                    || (s == TaskStatus.PENDING && t.bestEffort());
            case PIPELINED ->
                s.isAllocated()
                    || s == TaskStatus.SUCCEEDED
                    || s == TaskStatus.PIPELINED
                    || (s == TaskStatus.PENDING && t.bestEffort());
          };
      if (counts) {
        counted.merge(t.taskRole(), 1, Integer::sum);
      }
    }
    for (Map.Entry<String, Integer> e : podGroup.minTaskMember().entrySet()) {
      if (e.getValue() > 0 && counted.getOrDefault(e.getKey(), 0) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Resource elasticResources() {
    return Resource.exceededPart(allocated, minResources == null ? Resource.empty() : minResources);
  }

  @Override
  public Resource inqueueResources() {
    Resource out = Resource.empty();
    if (podGroup.minResources() == null) {
      return out;
    }
    for (Map.Entry<String, Quantity> e : podGroup.minResources().entrySet()) {
      String name = e.getKey();
      if (name.startsWith("count/")) {
        continue;
      }
      Resource one = Resource.fromList(Map.of(name, e.getValue()));
      int index = ResourceNames.existingIndexOf(name);
      if (index < 0) {
        continue;
      }
      double min = one.get(index);
      if (index == ResourceNames.CPU_INDEX
          || index == ResourceNames.MEMORY_INDEX
          || index == ResourceNames.PODS_INDEX) {
        out.set(index, Math.max(0, min - allocated.get(index)));
      } else if (ResourceNames.isScalarResourceName(name)
          || name.equals(ResourceNames.EPHEMERAL_STORAGE)) {
        if (!allocated.has(index)) {
          out.set(index, min);
        } else if (min > allocated.get(index)) {
          out.set(index, min - allocated.get(index));
        }
      }
    }
    Resource gated = gatedRequest();
    return gated == null ? out : lessGated(out, gated);
  }

  @Override
  public ResourceView deductSchedulingGated(ResourceView res) {
    Resource gated = gatedRequest();
    return gated == null ? res : lessGated(res, gated);
  }

  /** Σ request of the Pending scheduling-gated tasks, or null when there is none. */
  private Resource gatedRequest() {
    Resource gated = null;
    for (TaskState t : tasks) {
      if (t.schedulingGated() && t.status == TaskStatus.PENDING) {
        gated = (gated == null ? Resource.empty() : gated).add(t.resreq());
      }
    }
    return gated;
  }

  private static Resource lessGated(ResourceView res, Resource gated) {
    Resource out = Resource.copyOf(res).sub(gated);
    for (int i = 0; i < out.width(); i++) {
      if (out.has(i) && out.get(i) < 0) {
        out.set(i, 0);
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return uid();
  }
}
