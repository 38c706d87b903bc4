package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.framework.SessionResult;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pod groups that still wait after a session, in the order the scheduler tries them (queue
 * order, then job order within a queue, as the conf's plugins compare them), each with the blocker
 * that stopped it: what a plugin or action reported, else what the session's fit errors and task
 * states say.
 */
final class WaitingLine {

  private final SessionImpl session;
  private final List<JobState> ordered;

  private WaitingLine(SessionImpl session, List<JobState> ordered) {
    this.session = session;
    this.ordered = ordered;
  }

  /**
   * Orders the jobs that wait once the actions ran; called before the plugins close, while their
   * order functions still see the session.
   */
  static WaitingLine order(SessionImpl session) {
    Map<String, List<JobState>> byQueue = new HashMap<>();
    for (JobState job : session.jobMap().values()) {
      if (waits(job)) {
        byQueue.computeIfAbsent(job.queue(), q -> new ArrayList<>()).add(job);
      }
    }
    List<QueueInfo> queues = new ArrayList<>();
    for (String name : byQueue.keySet()) {
      queues.add(session.queueMap().get(name));
    }
    queues.sort(session::compareQueues);
    List<JobState> ordered = new ArrayList<>();
    for (QueueInfo q : queues) {
      List<JobState> jobs = byQueue.get(q.name());
      jobs.sort(session::compareJobs);
      ordered.addAll(jobs);
    }
    return new WaitingLine(session, ordered);
  }

  /** Whether fewer of the job's tasks are placed than its gang needs (its phase stays short). */
  private static boolean waits(JobState job) {
    return !job.isReady() && SessionRunner.scheduled(job) < job.minAvailable();
  }

  /**
   * The waiting pod groups; {@code orphans} (pod groups of missing queues) come next, then the pod
   * groups that pending pods name and that do not exist.
   */
  List<SessionResult.Waiting> close(List<PodGroup> orphans) {
    List<SessionResult.Waiting> out = new ArrayList<>();
    String queue = null;
    int position = 0;
    // Within each queue, a pod group that can never fit goes after the ones that can: it is not
    // the one the queue waits for.
    List<JobState> line = new ArrayList<>(ordered.size());
    Map<JobState, Blocker> blockers = new HashMap<>();
    List<JobState> inadmissible = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i++) {
      JobState job = ordered.get(i);
      Blocker b = blocker(job);
      blockers.put(job, b);
      if (b.stage() == Blocker.Stage.INADMISSIBLE) {
        inadmissible.add(job);
      } else {
        line.add(job);
      }
      if (i + 1 == ordered.size() || !ordered.get(i + 1).queue().equals(job.queue())) {
        line.addAll(inadmissible);
        inadmissible.clear();
      }
    }
    for (JobState job : line) {
      if (!job.queue().equals(queue)) {
        queue = job.queue();
        position = 0;
      }
      position++;
      Blocker blocker = blockers.get(job);
      out.add(
          new SessionResult.Waiting(
              job.uid(),
              job.queue(),
              position,
              job.phase.name(),
              job.minAvailable(),
              job.podGroup().minResources(),
              !blocker.action().isEmpty(),
              blocker));
    }
    for (PodGroup pg : orphans) {
      out.add(
          new SessionResult.Waiting(
              pg.key(),
              queueOf(pg),
              0,
              pg.phase(),
              pg.minMember(),
              pg.minResources(),
              false,
              missingQueue(
                  pg, session.leftovers().orphanPods().getOrDefault(pg.key(), List.of()))));
    }
    session
        .leftovers()
        .podsWithoutGroup()
        .forEach(
            (key, pods) ->
                out.add(
                    new SessionResult.Waiting(
                        key,
                        queueOf(pods.get(0)),
                        0,
                        "",
                        0,
                        Map.of(),
                        false,
                        missingPodGroup(key, pods))));
    return out;
  }

  /** The queue a pod without its pod group names ({@code scheduling.volcano.sh/queue-name}). */
  private static String queueOf(Pod pod) {
    String queue = pod.metadata().annotations().get(QUEUE_ANNOTATION);
    return queue == null || queue.isBlank() ? "default" : queue;
  }

  private static final String QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** The blocker of pending pods whose group annotation names a pod group that does not exist. */
  static Blocker missingPodGroup(String key, List<Pod> pods) {
    String who =
        pods.size() == 1
            ? "pod " + pods.get(0).key() + " names it"
            : pods.size() + " pods (" + pods.get(0).key() + ", ...) name it";
    return Blocker.of(
        Blocker.Stage.PODGROUP_MISSING,
        "pod group "
            + key
            + " does not exist: "
            + who
            + " in annotation scheduling.k8s.io/group-name and"
            + (pods.size() == 1 ? " is" : " are")
            + " not scheduled until the pod group is created");
  }

  static String queueOf(PodGroup pg) {
    return pg.queue().isEmpty() ? "default" : pg.queue();
  }

  /**
   * The blocker of a pod group whose queue does not exist. A pod group with pods on nodes had its
   * queue once: the queue was deleted, and the message says so and that its running pods stay.
   */
  static Blocker missingQueue(PodGroup pg, List<Pod> pods) {
    int onNodes = 0;
    for (Pod p : pods) {
      if (!p.nodeName().isEmpty()
          && !p.phase().equals("Succeeded")
          && !p.phase().equals("Failed")) {
        onNodes++;
      }
    }
    if (onNodes == 0) {
      return Blocker.of(
          Blocker.Stage.QUEUE_MISSING,
          "queue " + queueOf(pg) + " does not exist: pod group " + pg.key() + " is not scheduled");
    }
    return Blocker.of(
        Blocker.Stage.QUEUE_MISSING,
        "queue "
            + queueOf(pg)
            + " is gone (deleted while pod group "
            + pg.key()
            + " had pods running): its "
            + onNodes
            + (onNodes == 1 ? " pod on a node keeps running" : " pods on nodes keep running")
            + " untouched; its pending pods are not scheduled until the queue exists again");
  }

  /** The stages that are the queue's doing: its pods say so, with the numbers. */
  private static final Set<Blocker.Stage> QUEUE_STAGES =
      EnumSet.of(
          Blocker.Stage.QUEUE_CLOSED,
          Blocker.Stage.ENQUEUE,
          Blocker.Stage.QUEUE_CAPABILITY,
          Blocker.Stage.QUEUE_DESERVED,
          Blocker.Stage.CARD_QUOTA);

  /**
   * What holds a waiting job when its queue does (closed, capability, deserved share, card quota,
   * an enqueue vote), else null; read once the job's phase is set.
   */
  Blocker queueHold(JobState job) {
    if (!waits(job)) {
      return null;
    }
    Blocker b = blocker(job);
    return QUEUE_STAGES.contains(b.stage()) ? b : null;
  }

  /**
   * A queue that is not Open: the job's pending pods' requests, what of the queue still runs, and
   * the nothing such a queue admits.
   */
  private Blocker closed(JobState job, QueueState queue, QueueState closedOne) {
    String state = closedOne.queue().state() == null ? "not Open" : closedOne.queue().state();
    Resource requested = Resource.empty();
    for (TaskState t : job.taskStates()) {
      if (t.status == TaskStatus.PENDING) {
        requested.add(t.resreq());
      }
    }
    Resource running = Resource.empty();
    for (JobState other : session.jobMap().values()) {
      if (other.queue().equals(queue.name())) {
        for (TaskState t : other.taskStates()) {
          if (t.status.isAllocated()) {
            running.add(t.resreq());
          }
        }
      }
    }
    return Blocker.of(
        Blocker.Stage.QUEUE_CLOSED,
        closedOne == queue
            ? "queue " + queue.name() + " is " + state + ": it admits no new pod group"
            : "queue "
                + queue.name()
                + " admits no new pod group: its parent queue "
                + closedOne.name()
                + " is "
                + state,
        Blocker.figures(
            closedFigureNames(requested, running),
            requested,
            running,
            Resource.empty(),
            "what a " + state + " queue admits"));
  }

  /** The resources to show: what is requested or runs; pods when neither (a job of no pod). */
  private static List<String> closedFigureNames(Resource requested, Resource running) {
    Set<String> names = new java.util.TreeSet<>(requested.resourceNames());
    names.addAll(running.resourceNames());
    return names.isEmpty() ? List.of("pods") : List.copyOf(names);
  }

  /** What stopped {@code job}, most specific first. */
  private Blocker blocker(JobState job) {
    QueueState queue = session.queueMap().get(job.queue());
    if (queue != null && !queue.isOpen()) {
      return closed(job, queue, queue);
    }
    if (queue != null && job.phase == PodGroupPhase.Pending) {
      dev.caldera.api.info.QueueInfo above =
          dev.caldera.framework.loop.QueueLifecycle.closedAncestor(queue, session.queueMap()::get);
      if (above != null) {
        return closed(job, queue, (QueueState) above);
      }
    }
    Blocker reported = session.blockers().ofJob(job.uid());
    if (reported != null) {
      return withCounts(job, reported);
    }
    Blocker nodes = nodes(job);
    if (nodes != null) {
      return nodes;
    }
    Blocker queueBlocker = session.blockers().ofQueue(job.queue());
    if (queueBlocker != null) {
      return queueBlocker;
    }
    int placed = SessionRunner.scheduled(job) + job.taskCount(TaskStatus.ALLOCATED);
    int pipelined = job.taskCount(TaskStatus.PIPELINED);
    if (job.phase != PodGroupPhase.Pending && placed + pipelined > 0) {
      return new Blocker(
          Blocker.Stage.GANG,
          "allocate",
          "",
          "gang minMember "
              + job.minAvailable()
              + ": "
              + placed
              + " of "
              + job.taskStates().size()
              + " tasks placed"
              + (pipelined > 0
                  ? ", " + pipelined + " pipelined onto nodes whose resources are being released"
                  : ""),
          List.of(tasksFigure(job, placed)),
          Map.of());
    }
    if (job.phase == PodGroupPhase.Pending) {
      return Blocker.of(
          Blocker.Stage.WAITING,
          session.conf().actions().contains("enqueue")
              ? "not admitted yet: enqueue did not reach it this session"
              : "not admitted: the conf's actions ("
                  + String.join(", ", session.conf().actions())
                  + ") have no enqueue",
          List.of(tasksFigure(job, placed)));
    }
    return Blocker.of(
        Blocker.Stage.WAITING,
        session.conf().actions().contains("allocate")
            ? "admitted; allocate did not reach it this session"
            : "admitted; the conf's actions ("
                + String.join(", ", session.conf().actions())
                + ") have no allocate to place it",
        List.of(tasksFigure(job, placed)));
  }

  /** The gang's figure: tasks placed of the minMember it needs (of all its tasks). */
  private static Blocker.Figure tasksFigure(JobState job, int placed) {
    return new Blocker.Figure(
        TASKS, job.minAvailable(), placed, job.taskStates().size(), "tasks in the job");
  }

  /** The resource name of a gang's figure. */
  static final String TASKS = "tasks (minMember)";

  /**
   * A blocker a JobValidFn gave in words only ({@code valid: 1, min: 2}) gets the gang's figure:
   * the valid tasks against minMember.
   */
  private static Blocker withCounts(JobState job, Blocker reported) {
    if (reported.stage() != Blocker.Stage.INVALID || !reported.figures().isEmpty()) {
      return reported;
    }
    return new Blocker(
        reported.stage(),
        reported.action(),
        reported.plugin(),
        reported.message(),
        List.of(
            new Blocker.Figure(
                TASKS,
                job.minAvailable(),
                job.validTaskNum(),
                job.taskStates().size(),
                "tasks in the job")),
        reported.nodeCounts());
  }

  /**
   * No node fits: the first task (by name) with fit errors, with per-reason node counts; else a
   * pending task larger than every node, with the largest node's figures.
   */
  private Blocker nodes(JobState job) {
    List<TaskState> tasks = new ArrayList<>(job.taskStates());
    tasks.sort(Comparator.comparing(TaskState::name));
    for (TaskState t : tasks) {
      if (t.status != TaskStatus.PENDING) {
        continue;
      }
      String explicit = session.fitErrors().message(t);
      Map<String, Status> errors = session.fitErrors().of(t);
      if (!errors.isEmpty()) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Status s : errors.values()) {
          for (String reason : s.reasons()) {
            counts.merge(reason, 1, Integer::sum);
          }
        }
        return new Blocker(
            Blocker.Stage.NODES,
            "allocate",
            "",
            "task " + t.name() + ": " + FitErrors.nodesMessage(errors),
            List.of(),
            counts);
      }
      if (explicit != null) {
        return new Blocker(
            Blocker.Stage.NODES,
            "allocate",
            "",
            "task " + t.name() + ": " + explicit,
            List.of(),
            Map.of());
      }
    }
    for (TaskState t : tasks) {
      if (t.status != TaskStatus.PENDING) {
        continue;
      }
      String tooLarge = FitErrors.largerThanEveryNode(session, t);
      if (tooLarge != null) {
        return new Blocker(
            Blocker.Stage.NODES,
            "",
            "",
            "task " + t.name() + ": " + tooLarge,
            largestNodeFigures(t),
            Map.of("larger than the node's allocatable", session.nodes().size()));
      }
    }
    return null;
  }

  private List<Blocker.Figure> largestNodeFigures(TaskState t) {
    ResourceView request = t.resreq();
    List<Blocker.Figure> figures = new ArrayList<>();
    for (String name : request.resourceNames()) {
      double largest = 0;
      for (var n : session.nodes()) {
        largest = Math.max(largest, n.allocatable().get(name));
      }
      if (request.get(name) > largest + Resource.EPSILON) {
        figures.add(new Blocker.Figure(name, request.get(name), 0, largest, "largest node"));
      }
    }
    return figures;
  }
}
