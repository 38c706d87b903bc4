package dev.caldera.testkit;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.PodGroupFacts;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A job (pod group and tasks) whose counts and sums are computed from its tasks on every call, with
 * Volcano's definitions ({@code api/job_info.go}). Defaults: queue {@code default}, minMember 1,
 * priority 0, phase Pending.
 */
public final class FakeJob implements JobInfo {

  private final String namespace;
  private final String name;
  private String queue = "default";
  private int minMember = 1;
  private final Map<String, Integer> minTaskMember = new TreeMap<>();
  private Map<String, Quantity> minResources;
  private int priority;
  private String priorityClassName = "";
  private PodGroupPhase phase = PodGroupPhase.Pending;
  private Instant created = Instant.EPOCH;
  private final Map<String, String> labels = new TreeMap<>();
  private final Map<String, String> annotations = new TreeMap<>();
  private final Map<String, FakeTask> tasks = new TreeMap<>();

  /** A job {@code namespace/name} outside any session; {@link FakeSession#addJob} makes one. */
  public FakeJob(String uid) {
    int slash = uid.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException("a job uid is namespace/name: " + uid);
    }
    this.namespace = uid.substring(0, slash);
    this.name = uid.substring(slash + 1);
  }

  // ------------------------------------------------------------ setters

  /** Adds a Pending task {@code name} in the job's namespace. */
  public FakeTask task(String name) {
    FakeTask task = new FakeTask(this, name);
    if (tasks.containsKey(task.uid())) {
      throw new IllegalArgumentException("task " + name + " already exists in " + uid());
    }
    tasks.put(task.uid(), task);
    return task;
  }

  public FakeJob queue(String queue) {
    this.queue = queue;
    return this;
  }

  public FakeJob minMember(int minMember) {
    this.minMember = minMember;
    return this;
  }

  public FakeJob minTaskMember(String role, int min) {
    minTaskMember.put(role, min);
    return this;
  }

  /** {@code spec.minResources} as name/quantity pairs. */
  public FakeJob minResources(String... nameQuantityPairs) {
    minResources = Resources.list(nameQuantityPairs);
    return this;
  }

  /** The resolved priority (the value of the pod group's priority class). */
  public FakeJob priority(int priority) {
    this.priority = priority;
    return this;
  }

  public FakeJob priorityClassName(String name) {
    this.priorityClassName = name;
    return this;
  }

  public FakeJob phase(PodGroupPhase phase) {
    this.phase = phase;
    return this;
  }

  public FakeJob created(Instant created) {
    this.created = created;
    return this;
  }

  /** Sets the creation time to {@code seconds} after the epoch. */
  public FakeJob created(long seconds) {
    return created(Instant.ofEpochSecond(seconds));
  }

  public FakeJob label(String key, String value) {
    labels.put(key, value);
    return this;
  }

  public FakeJob annotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  /** Sets the pod group's {@code volcano.sh/preemptable} annotation. */
  public FakeJob preemptable(boolean preemptable) {
    return annotation(PodFacts.PREEMPTABLE, Boolean.toString(preemptable));
  }

  // ------------------------------------------------------------ JobInfo

  @Override
  public String uid() {
    return namespace + "/" + name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public PodGroup podGroup() {
    return new PodGroup(
        new ObjectMeta(name, namespace, null, created, null, labels, annotations, null),
        queue,
        minMember,
        minTaskMember,
        minResources,
        priorityClassName,
        phase.name(),
        null);
  }

  @Override
  public PodGroupPhase phase() {
    return phase;
  }

  @Override
  public int minAvailable() {
    return minMember;
  }

  @Override
  public Map<String, Integer> taskMinAvailable() {
    return Map.copyOf(minTaskMember);
  }

  @Override
  public int taskMinAvailableTotal() {
    return PodGroupFacts.of(podGroup()).taskMinAvailableTotal();
  }

  @Override
  public int priority() {
    return priority;
  }

  @Override
  public Instant creationTimestamp() {
    return created;
  }

  @Override
  public boolean preemptable() {
    return PodGroupFacts.of(podGroup()).preemptable();
  }

  @Override
  public List<TaskInfo> tasks() {
    return new ArrayList<>(tasks.values());
  }

  /** The fake tasks, ordered by UID. */
  public List<FakeTask> fakeTasks() {
    return new ArrayList<>(tasks.values());
  }

  @Override
  public int taskCount(TaskStatus status) {
    int n = 0;
    for (FakeTask t : tasks.values()) {
      if (t.status() == status) {
        n++;
      }
    }
    return n;
  }

  @Override
  public Resource allocated() {
    Resource sum = Resource.empty();
    for (FakeTask t : tasks.values()) {
      if (t.status().isAllocated()) {
        sum.add(t.resreq());
      }
    }
    return sum;
  }

  @Override
  public Resource totalRequest() {
    Resource sum = Resource.empty();
    for (FakeTask t : tasks.values()) {
      sum.add(t.resreq());
    }
    return sum;
  }

  @Override
  public Resource minResources() {
    return minResources == null ? null : Resource.fromList(minResources);
  }

  @Override
  public int readyTaskNum() {
    int n = 0;
    for (FakeTask t : tasks.values()) {
      if (t.status().isReady()) {
        n++;
      }
    }
    return n;
  }

  @Override
  public int waitingTaskNum() {
    return taskCount(TaskStatus.PIPELINED);
  }

  @Override
  public int pendingBestEffortTaskNum() {
    int n = 0;
    for (FakeTask t : tasks.values()) {
      if (t.status() == TaskStatus.PENDING && t.bestEffort()) {
        n++;
      }
    }
    return n;
  }

  @Override
  public int validTaskNum() {
    int n = 0;
    for (FakeTask t : tasks.values()) {
      if (t.status().isValid()) {
        n++;
      }
    }
    return n;
  }

  @Override
  public boolean checkTaskValid() {
    return rolesSatisfied(false, false, true);
  }

  @Override
  public boolean checkTaskReady() {
    return rolesSatisfied(false, true, false);
  }

  @Override
  public boolean checkTaskPipelined() {
    return rolesSatisfied(true, true, false);
  }

  /**
   * Whether every role reaches its minimum, counting allocated and succeeded tasks, plus pipelined
   * ones, pending best-effort ones, or all pending ones as asked.
   */
  private boolean rolesSatisfied(
      boolean countPipelined, boolean countPendingBestEffort, boolean countAllPendingAndPipelined) {
    if (minMember < taskMinAvailableTotal()) {
      return true;
    }
    Map<String, Integer> occupied = new TreeMap<>();
    for (FakeTask t : tasks.values()) {
      TaskStatus s = t.status();
      boolean counts =
          s.isAllocated()
              || s == TaskStatus.SUCCEEDED
              || ((countPipelined || countAllPendingAndPipelined) && s == TaskStatus.PIPELINED)
              || (countAllPendingAndPipelined && s == TaskStatus.PENDING)
              || (countPendingBestEffort && s == TaskStatus.PENDING && t.bestEffort());
      if (counts) {
        occupied.merge(t.taskRole(), 1, Integer::sum);
      }
    }
    for (Map.Entry<String, Integer> e : minTaskMember.entrySet()) {
      if (e.getValue() > 0 && occupied.getOrDefault(e.getKey(), 0) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Resource elasticResources() {
    Resource min = minResources();
    return Resource.exceededPart(allocated(), min == null ? Resource.empty() : min);
  }

  @Override
  public Resource inqueueResources() {
    if (minResources == null) {
      return Resource.empty();
    }
    Resource allocated = allocated();
    Resource inqueue = Resource.empty();
    for (Map.Entry<String, Quantity> e : minResources.entrySet()) {
      String rName = e.getKey();
      Resource one = Resource.fromList(Map.of(rName, e.getValue()));
      switch (rName) {
        case ResourceNames.CPU ->
            inqueue.set(
                ResourceNames.CPU_INDEX, Math.max(0, one.milliCpu() - allocated.milliCpu()));
        case ResourceNames.MEMORY ->
            inqueue.set(ResourceNames.MEMORY_INDEX, Math.max(0, one.memory() - allocated.memory()));
        default -> {
          int index = ResourceNames.existingIndexOf(rName);
          if (index < 0 || !one.has(index)) {
            continue; // not a resource NewResource keeps
          }
          if (!allocated.has(index)) {
            inqueue.set(index, one.get(index));
          } else if (one.get(index) > allocated.get(index)) {
            inqueue.set(index, one.get(index) - allocated.get(index));
          }
        }
      }
    }
    return Resource.exceededPart(inqueue, gatedRequest());
  }

  @Override
  public ResourceView deductSchedulingGated(ResourceView res) {
    return Resource.exceededPart(res, gatedRequest());
  }

  private Resource gatedRequest() {
    Resource gated = Resource.empty();
    for (FakeTask t : tasks.values()) {
      if (t.schedulingGated()) {
        gated.add(t.resreq());
      }
    }
    return gated;
  }

  @Override
  public String toString() {
    return "FakeJob[" + uid() + "]";
  }
}
