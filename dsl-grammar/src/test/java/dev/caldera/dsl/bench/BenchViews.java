package dev.caldera.dsl.bench;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.PodGroupFacts;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.dsl.PolicyContext;
import dev.caldera.support.placement.PodPlacements;
import dev.caldera.support.resource.Resource;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Views for the benchmark that return prebuilt objects, so that the figures measure the policy and
 * not the fixtures (the test kit's fakes build their model records on every call).
 */
final class BenchViews {

  private BenchViews() {}

  static final class Task implements TaskInfo {
    private final Pod pod;
    private final PodFacts facts;
    private final String jobId;
    private final Resource request = Resource.of(1000, 1 << 30);

    Task(String namespace, String name, String jobId, String ownerKind) {
      List<OwnerReference> owners =
          ownerKind == null
              ? List.of()
              : List.of(new OwnerReference("apps/v1", ownerKind, name + "-owner", name, true));
      this.pod =
          new Pod(
              new ObjectMeta(name, namespace, null, Instant.EPOCH, null, null, null, owners),
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              "Running",
              null,
              null);
      this.facts = PodFacts.of(pod);
      this.jobId = jobId;
    }

    @Override
    public String uid() {
      return pod.metadata().uid();
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
    public String jobId() {
      return jobId;
    }

    @Override
    public Pod pod() {
      return pod;
    }

    @Override
    public PodPlacement placement() {
      return PodPlacements.of(pod);
    }

    @Override
    public TaskStatus status() {
      return facts.status();
    }

    @Override
    public String nodeName() {
      return "";
    }

    @Override
    public Resource resreq() {
      return request;
    }

    @Override
    public Resource initResreq() {
      return request;
    }

    @Override
    public int priority() {
      return facts.priority();
    }

    @Override
    public boolean preemptable() {
      return facts.preemptable();
    }

    @Override
    public boolean bestEffort() {
      return false;
    }

    @Override
    public String taskRole() {
      return facts.taskRole();
    }

    @Override
    public boolean schedulingGated() {
      return facts.schedulingGated();
    }

    @Override
    public Instant creationTimestamp() {
      return Instant.EPOCH;
    }

    @Override
    public boolean evictionOccurred() {
      return false;
    }
  }

  static final class Job implements JobInfo {
    private final PodGroup podGroup;
    private final PodGroupFacts facts;

    Job(String namespace, String name, String queue, String serviceType) {
      Map<String, String> annotations =
          serviceType == null ? Map.of() : Map.of("volcano.sh/service.type", serviceType);
      this.podGroup =
          new PodGroup(
              new ObjectMeta(name, namespace, null, null, null, null, annotations, null),
              queue,
              1,
              null,
              null,
              null,
              "Running",
              null);
      this.facts = PodGroupFacts.of(podGroup);
    }

    @Override
    public String uid() {
      return podGroup.key();
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
      return podGroup.queue();
    }

    @Override
    public PodGroup podGroup() {
      return podGroup;
    }

    @Override
    public PodGroupPhase phase() {
      return facts.phase();
    }

    @Override
    public int minAvailable() {
      return 1;
    }

    @Override
    public Map<String, Integer> taskMinAvailable() {
      return Map.of();
    }

    @Override
    public int taskMinAvailableTotal() {
      return facts.taskMinAvailableTotal();
    }

    @Override
    public int priority() {
      return 0;
    }

    @Override
    public Instant creationTimestamp() {
      return Instant.EPOCH;
    }

    @Override
    public boolean preemptable() {
      return facts.preemptable();
    }

    @Override
    public List<TaskInfo> tasks() {
      return List.of();
    }

    @Override
    public int taskCount(TaskStatus status) {
      return 0;
    }

    @Override
    public Resource allocated() {
      return Resource.empty();
    }

    @Override
    public Resource totalRequest() {
      return Resource.empty();
    }

    @Override
    public Resource minResources() {
      return null;
    }

    @Override
    public int readyTaskNum() {
      return 0;
    }

    @Override
    public int waitingTaskNum() {
      return 0;
    }

    @Override
    public int pendingBestEffortTaskNum() {
      return 0;
    }

    @Override
    public int validTaskNum() {
      return 0;
    }

    @Override
    public boolean checkTaskValid() {
      return true;
    }

    @Override
    public boolean checkTaskReady() {
      return true;
    }

    @Override
    public boolean checkTaskPipelined() {
      return true;
    }

    @Override
    public Resource elasticResources() {
      return Resource.empty();
    }

    @Override
    public Resource inqueueResources() {
      return Resource.empty();
    }

    @Override
    public ResourceView deductSchedulingGated(ResourceView res) {
      return res;
    }
  }

  static final class QueueView implements QueueInfo {
    private final Queue queue;

    QueueView(String name, boolean reclaimable) {
      this.queue =
          new Queue(
              ObjectMeta.named("", name),
              1,
              null,
              null,
              null,
              reclaimable,
              null,
              0,
              null,
              null,
              "Open",
              null);
    }

    @Override
    public String name() {
      return queue.name();
    }

    @Override
    public Queue queue() {
      return queue;
    }
  }

  /** Lookups by name in plain maps, as a session does. */
  static final class Context implements PolicyContext {
    final Map<String, JobInfo> jobs = new HashMap<>();
    final Map<String, QueueInfo> queues = new HashMap<>();

    @Override
    public long nowMillis() {
      return 0;
    }

    @Override
    public JobInfo job(TaskInfo task) {
      return jobs.get(task.jobId());
    }

    @Override
    public QueueInfo queue(String name) {
      return queues.get(name);
    }

    @Override
    public NodeInfo node(String name) {
      return null;
    }

    @Override
    public Resource allocated(QueueInfo queue) {
      return Resource.empty();
    }

    @Override
    public Resource deserved(QueueInfo queue) {
      return Resource.empty();
    }

    @Override
    public Resource capability(QueueInfo queue) {
      return Resource.empty();
    }

    @Override
    public Resource guarantee(QueueInfo queue) {
      return Resource.empty();
    }

    @Override
    public double share(QueueInfo queue) {
      return 1;
    }
  }
}
