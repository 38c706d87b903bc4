package dev.caldera.framework.internal.session;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.framework.SessionResult;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Session close: pod group phases and conditions, events, pod conditions, queue status (§8.4–8.5),
 * and the session's result made of them and of the ledger's decisions.
 */
final class SessionCloser {

  private static final String HIERARCHY_ANNOTATION = "volcano.sh/hierarchy";

  private final SessionImpl session;
  private final WaitingLine line;
  // The pod group conditions the session set, by job UID.
  private Map<String, Map<String, PodCondition>> conditionsSet = Map.of();

  SessionCloser(SessionImpl session, WaitingLine line) {
    this.session = session;
    this.line = line;
  }

  SessionResult close(long nanos) {
    conditionsSet = session.ledger().podGroupConditions();
    Map<String, SessionResult.PodGroupStatus> podGroups = new LinkedHashMap<>();
    Map<String, SessionResult.PodStatusUpdate> pods = new LinkedHashMap<>();
    List<SessionResult.Pipelined> pipelined = new ArrayList<>();
    // The session's jobs are in uid order, each uid once.
    for (JobInfo info : session.jobs()) {
      JobState job = Ledger.job(info);
      closeJob(job, podGroups, pods);
      for (TaskState t : job.taskStates()) {
        if (t.status == TaskStatus.PIPELINED) {
          pipelined.add(new SessionResult.Pipelined(t.key(), t.nodeName));
        }
      }
    }
    Map<String, Map<String, Quantity>> queueAllocated = queueAllocated();
    List<SessionResult.Waiting> waiting = line.close(session.leftovers().orphans());
    for (SessionResult.Waiting w : waiting) {
      Blocker.Stage stage = w.blocker().stage();
      if (stage == Blocker.Stage.QUEUE_MISSING) {
        session.recordEvent(
            "PodGroup",
            w.podGroup(),
            "Warning",
            SessionRunner.QUEUE_NOT_FOUND,
            w.blocker().message());
        tellPendingPods(
            session.leftovers().orphanPods().getOrDefault(w.podGroup(), List.of()),
            SessionRunner.QUEUE_NOT_FOUND,
            w.blocker(),
            pods);
      } else if (stage == Blocker.Stage.PODGROUP_MISSING) {
        tellPendingPods(
            session.leftovers().podsWithoutGroup().getOrDefault(w.podGroup(), List.of()),
            SessionRunner.POD_GROUP_NOT_FOUND,
            w.blocker(),
            pods);
      } else if (stage == Blocker.Stage.QUEUE_CLOSED) {
        session.recordEvent(
            "PodGroup", w.podGroup(), "Warning", SessionRunner.QUEUE_CLOSED, w.blocker().message());
      }
    }
    Map<String, String> queueStates = QueueLifecycleStep.transitions(session);
    queueStates.forEach(
        (queue, state) ->
            session.recordEvent(
                "Queue",
                queue,
                "Normal",
                QueueLifecycleStep.CLOSED,
                "queue " + queue + " is Closed: nothing of it runs any more"));
    NodeFunctions counts = session.nodeFunctions();
    SessionResult.SessionStats stats =
        new SessionResult.SessionStats(
            counts.tasksConsidered.sum(),
            counts.nodesFiltered.sum(),
            counts.nodesScored.sum(),
            counts.nodesReused.sum(),
            nanos / 1_000_000.0,
            Map.of(),
            Map.of());
    Ledger.Decisions decisions = session.ledger().decisions();
    return new SessionResult(
        session.uid(),
        decisions.binds(),
        decisions.evictions(),
        pipelined,
        podGroups,
        queueAllocated,
        pods,
        decisions.events(),
        stats,
        waiting,
        session.blockers().queueQuotas(),
        queueStates,
        session.blockers().nodeCards());
  }

  private void closeJob(
      JobState job,
      Map<String, SessionResult.PodGroupStatus> podGroups,
      Map<String, SessionResult.PodStatusUpdate> pods) {
    Map<String, PodCondition> setThisSession = conditionsSet.getOrDefault(job.uid(), Map.of());
    List<PodCondition> had = job.podGroup().conditions();
    List<PodCondition> conditions = new ArrayList<>(had.size() + setThisSession.size());
    had.forEach(c -> putByType(conditions, c));
    setThisSession.values().forEach(c -> putByType(conditions, c));
    PodCondition unschedulable = setThisSession.get("Unschedulable");
    boolean unschedulableNow = unschedulable != null && "True".equals(unschedulable.status());

    int running = job.taskCount(TaskStatus.RUNNING);
    int succeeded = job.taskCount(TaskStatus.SUCCEEDED);
    int failed = job.taskCount(TaskStatus.FAILED);
    PodGroupPhase phase;
    int scheduled = SessionRunner.scheduled(job);
    if (running > 0 && unschedulableNow) {
      phase = PodGroupPhase.Unknown;
    } else if (scheduled >= job.minAvailable()) {
      phase = scheduled == succeeded + failed ? PodGroupPhase.Completed : PodGroupPhase.Running;
    } else if (job.phase != PodGroupPhase.Inqueue) {
      phase = PodGroupPhase.Pending;
    } else {
      phase = PodGroupPhase.Inqueue;
    }
    boolean changed =
        !phase.name().equals(job.podGroup().phase()) || !sameConditions(had, conditions);
    job.phase = phase;
    podGroups.put(
        job.uid(),
        new SessionResult.PodGroupStatus(
            phase.name(), running, succeeded, failed, List.copyOf(conditions), changed));

    // A job that is ready (its tasks bound or being bound this session) is not reported as
    // unschedulable: Volcano warns "0/2 tasks in gang unschedulable: pod group is ready, 2
    // Binding" there, which reads as a failure (KNOWN_DIFFERENCES.md).
    if ((phase == PodGroupPhase.Unknown
            || phase == PodGroupPhase.Pending
            || phase == PodGroupPhase.Inqueue)
        && !job.isReady()) {
      session.recordEvent(
          "PodGroup",
          job.uid(),
          "Warning",
          "Unschedulable",
          job.taskCount(TaskStatus.PENDING)
              + "/"
              + job.taskStates().size()
              + " tasks in gang unschedulable: "
              + FitErrors.jobFitError(session, job));
    } else if (changed) {
      session.recordEvent("PodGroup", job.uid(), "Normal", "Scheduled", "pod group is ready");
    }
    Blocker queueHold = line.queueHold(job);
    for (TaskState t : job.taskStates()) {
      if (t.schedulingGated()
          || !(t.status == TaskStatus.ALLOCATED
              || t.status == TaskStatus.PENDING
              || t.status == TaskStatus.PIPELINED)) {
        continue;
      }
      FitErrors.Reason reason = FitErrors.taskReason(session, job, t, queueHold);
      PodCondition condition =
          new PodCondition("PodScheduled", "False", reason.reason(), reason.message());
      PodCondition existing =
          t.pod().conditions().stream()
              .filter(c -> c.type().equals("PodScheduled"))
              .findFirst()
              .orElse(null);
      boolean conditionChanged =
          existing == null
              || !Objects.equals(existing.status(), condition.status())
              || !Objects.equals(existing.reason(), condition.reason())
              || !Objects.equals(existing.message(), condition.message());
      String nominated = reason.nominatedNode();
      boolean nominationChanged =
          !nominated.isEmpty() && !nominated.equals(t.pod().nominatedNodeName());
      if (conditionChanged || nominationChanged) {
        pods.put(
            t.key(),
            new SessionResult.PodStatusUpdate(
                condition, nominated.isEmpty() ? t.pod().nominatedNodeName() : nominated));
        session.recordEvent("Pod", t.key(), "Warning", "FailedScheduling", reason.message());
      }
    }
  }

  /**
   * Pods that no job holds (their pod group or its queue is missing): each pending one gets the pod
   * group's blocker as its {@code PodScheduled} condition and a Warning event, once per change of
   * the message; a pod on a node is left as it is.
   */
  private void tellPendingPods(
      List<Pod> podsOfGroup,
      String eventReason,
      Blocker blocker,
      Map<String, SessionResult.PodStatusUpdate> pods) {
    for (Pod pod : podsOfGroup) {
      if (!pod.nodeName().isEmpty()) {
        continue;
      }
      PodCondition condition =
          new PodCondition(
              "PodScheduled", "False", FitErrors.REASON_UNSCHEDULABLE, blocker.message());
      boolean same =
          pod.conditions().stream()
              .anyMatch(
                  c ->
                      c.type().equals("PodScheduled")
                          && Objects.equals(c.status(), condition.status())
                          && Objects.equals(c.reason(), condition.reason())
                          && Objects.equals(c.message(), condition.message()));
      if (!same) {
        pods.put(pod.key(), new SessionResult.PodStatusUpdate(condition, pod.nominatedNodeName()));
        session.recordEvent("Pod", pod.key(), "Warning", eventReason, blocker.message());
      }
    }
  }

  /**
   * Puts {@code c} into {@code conditions} as a map by type would: in the place of the one of its
   * type, else last (a pod group has a condition or two: a list is cheaper than a map).
   */
  private static void putByType(List<PodCondition> conditions, PodCondition c) {
    for (int i = 0; i < conditions.size(); i++) {
      if (conditions.get(i).type().equals(c.type())) {
        conditions.set(i, c);
        return;
      }
    }
    conditions.add(c);
  }

  /** The last condition of {@code type} in {@code conditions}, or null. */
  private static PodCondition lastOfType(List<PodCondition> conditions, String type) {
    for (int i = conditions.size() - 1; i >= 0; i--) {
      if (conditions.get(i).type().equals(type)) {
        return conditions.get(i);
      }
    }
    return null;
  }

  private static boolean sameConditions(List<PodCondition> a, List<PodCondition> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (PodCondition c : b) {
      PodCondition o = lastOfType(a, c.type());
      if (o == null
          || !Objects.equals(o.status(), c.status())
          || !Objects.equals(o.reason(), c.reason())
          || !Objects.equals(o.message(), c.message())) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code updateQueueStatus}: Σ request of allocated-status tasks, added to every ancestor along
   * {@code spec.parent} when a queue named root exists (Volcano). A queue without {@code
   * spec.parent} whose {@code volcano.sh/hierarchy} annotation names a path also adds to the queues
   * that hold the path's prefixes, so annotation trees report their parents too.
   */
  private Map<String, Map<String, Quantity>> queueAllocated() {
    Map<String, QueueState> queues = session.queueMap();
    Map<String, String> queueByPath = new HashMap<>();
    for (QueueState q : queues.values()) {
      String path = q.queue().metadata().annotations().get(HIERARCHY_ANNOTATION);
      if (path != null && !path.isBlank()) {
        queueByPath.putIfAbsent(path.trim(), q.name());
      }
    }
    Map<String, Resource> allocated = new HashMap<>();
    boolean rootExists = queues.containsKey("root");
    for (JobState job : session.jobMap().values()) {
      if (job.allocatedTaskCount() == 0) {
        continue;
      }
      ResourceView sum;
      if (job.touched()) {
        Resource summed = Resource.empty();
        for (TaskState t : job.taskStates()) {
          if (t.status.isAllocated()) {
            summed.add(t.resreq());
          }
        }
        sum = summed;
      } else {
        // As it opened: the job's running total is the same sum (whole numbers, so in any order),
        // with no dimension a task added and a discard took back.
        sum = job.allocated();
      }
      allocated.computeIfAbsent(job.queue(), q -> Resource.empty()).add(sum);
      if (rootExists && job.queue().equals("root")) {
        // Volcano adds a job placed directly in root to root twice.
        allocated.get("root").add(sum);
      }
      String current = job.queue();
      for (int guard = 0; !current.equals("root") && guard <= queues.size(); guard++) {
        String parent = parentOf(queues.get(current), queueByPath, rootExists);
        if (parent == null) {
          break;
        }
        allocated.computeIfAbsent(parent, p -> Resource.empty()).add(sum);
        current = parent;
      }
    }
    Map<String, Map<String, Quantity>> out = new LinkedHashMap<>();
    for (QueueState q : session.queues().stream().map(QueueState.class::cast).toList()) {
      out.put(q.name(), allocated.getOrDefault(q.name(), Resource.empty()).toList());
    }
    return out;
  }

  /** The queue whose status also counts {@code q}'s allocation, or null. */
  private static String parentOf(
      QueueState q, Map<String, String> queueByPath, boolean rootExists) {
    if (q == null) {
      return rootExists ? "root" : null;
    }
    if (!q.parent().isEmpty()) {
      return rootExists ? q.parent() : null;
    }
    String path = q.queue().metadata().annotations().get(HIERARCHY_ANNOTATION);
    if (path != null && !path.isBlank()) {
      String[] parts = path.trim().split("/");
      for (int len = parts.length - 1; len >= 1; len--) {
        String parent = queueByPath.get(String.join("/", java.util.Arrays.copyOf(parts, len)));
        if (parent != null && !parent.equals(q.name())) {
          return parent;
        }
      }
    }
    return rootExists ? "root" : null;
  }
}
