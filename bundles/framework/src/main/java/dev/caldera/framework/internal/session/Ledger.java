package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.PreBindFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import dev.caldera.framework.SessionResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How binds are applied: the one place a session's decisions change task statuses and node
 * accounting (allocate, pipeline, evict, and their undo) and become what the cluster is sent (the
 * binds and evictions a commit records, with their events and the pod group conditions set). Every
 * change tells the plugins' event handlers. Actions reach it through the session (immediate
 * operations) or a {@link StatementImpl} (operations committed or discarded together).
 *
 * <p>Plugins and actions hold the API's views; {@link #task}, {@link #job} and {@link #node} are
 * where a view is taken back to the session's own state.
 */
final class Ledger {

  private final Map<String, JobState> jobs;
  private final Map<String, NodeState> nodes;
  private List<EventHandler> eventHandlers = List.of();
  private List<PreBindFn> preBinds = List.of();
  private Consumer<SessionResult.Bind> committedBinds = b -> {};

  private final List<SessionResult.Bind> binds = new ArrayList<>();
  private final List<SessionResult.Eviction> evictions = new ArrayList<>();
  private final List<SessionResult.Event> events = new ArrayList<>();
  private final Map<String, Map<String, PodCondition>> podGroupConditions = new LinkedHashMap<>();
  private final Map<String, EvictedFor> evictedFor = new HashMap<>();

  /**
   * What a session decided so far, in the order decided: the binds and evictions the cluster is
   * sent, and the events.
   */
  record Decisions(
      List<SessionResult.Bind> binds,
      List<SessionResult.Eviction> evictions,
      List<SessionResult.Event> events) {}

  Ledger(Map<String, JobState> jobs, Map<String, NodeState> nodes) {
    this.jobs = jobs;
    this.nodes = nodes;
  }

  /** The session's state behind a task view (every view a session hands out is one). */
  static TaskState task(TaskInfo task) {
    return (TaskState) task;
  }

  /** The session's state behind a job view. */
  static JobState job(JobInfo job) {
    return (JobState) job;
  }

  /** The session's state behind a node view. */
  static NodeState node(NodeInfo node) {
    return (NodeState) node;
  }

  /** The handlers told of every change, once every plugin has opened. */
  void eventHandlers(List<EventHandler> handlers) {
    this.eventHandlers = handlers;
  }

  /**
   * Who is handed each bind as it is committed, before the session ends (a real cluster's writer
   * sends it at once); the bind stays among the session's decisions all the same.
   */
  void committedBinds(Consumer<SessionResult.Bind> sink) {
    this.committedBinds = sink;
  }

  /** The plugins whose volume decisions each bind carries, in plugin order. */
  void preBinds(List<PreBindFn> preBinds) {
    this.preBinds = List.copyOf(preBinds);
  }

  // ------------------------------------------------------------ changes and their undo

  /** Marks a task Releasing (its node keeps counting it until the cluster deletes the pod). */
  void evict(TaskState t) {
    setStatus(t, TaskStatus.RELEASING);
    NodeState node = nodes.get(t.nodeName);
    if (node != null) {
      node.evicted(t);
    }
    for (EventHandler h : eventHandlers) {
      h.deallocated(t);
    }
  }

  /** Undoes {@link #evict}: the task is Running again. */
  void undoEvict(TaskState t) {
    setStatus(t, TaskStatus.RUNNING);
    NodeState node = nodes.get(t.nodeName);
    if (node != null) {
      node.unevicted(t);
    }
    for (EventHandler h : eventHandlers) {
      h.allocated(t);
    }
  }

  private void setStatus(TaskState t, TaskStatus status) {
    JobState job = jobs.get(t.jobId());
    NodeState node = nodes.get(t.nodeName);
    TaskStatus old = t.status;
    if (job != null) {
      job.setStatus(t, status);
    } else {
      t.setStatus(status);
    }
    if (node != null) {
      node.updateTask(t, old, status);
    }
  }

  Status pipeline(TaskState t, NodeState node, boolean evictionOccurred) {
    return place(t, node, TaskStatus.PIPELINED, evictionOccurred);
  }

  Status allocate(TaskState t, NodeState node) {
    return place(t, node, TaskStatus.ALLOCATED, false);
  }

  /** Places a task on a node; a handler's failure undoes it and is the answer. */
  private Status place(TaskState t, NodeState node, TaskStatus status, boolean evictionOccurred) {
    JobState job = jobs.get(t.jobId());
    if (job == null || node == null) {
      return Status.error("task " + t.key() + ": job or node not in session");
    }
    job.setStatus(t, status);
    t.setNodeName(node.name());
    t.setEvictionOccurred(evictionOccurred);
    node.addTask(t);
    for (EventHandler h : eventHandlers) {
      Status s = h.allocated(t);
      if (s != null && !s.isSuccess()) {
        undoPlacement(t);
        return s;
      }
    }
    return Status.OK;
  }

  /** Undoes an allocation or a pipelining: the task is Pending on no node. */
  void undoPlacement(TaskState t) {
    JobState job = jobs.get(t.jobId());
    NodeState node = nodes.get(t.nodeName);
    if (node != null) {
      node.removeTask(t);
    }
    if (job != null) {
      job.setStatus(t, TaskStatus.PENDING);
    } else {
      t.setStatus(TaskStatus.PENDING);
    }
    t.setNodeName("");
    for (EventHandler h : eventHandlers) {
      h.deallocated(t);
    }
  }

  // ------------------------------------------------------------ commits: what the cluster is sent

  /**
   * Records the eviction the cluster is sent, with its events: Volcano's {@code Evict} event on the
   * pod, followed by who it made room for, the queues, what it frees and the deciding rule.
   */
  void commitEvict(TaskState t, String reason) {
    EvictedFor why = evictedFor.get(t.uid());
    JobState victimJob = jobs.get(t.jobId());
    JobState evictorJob = why == null ? null : jobs.get(why.evictor().jobId());
    SessionResult.Eviction eviction =
        new SessionResult.Eviction(
            t.key(),
            reason,
            why == null ? "" : why.evictor().key(),
            victimJob == null ? "" : victimJob.namespace() + "/" + victimJob.name(),
            victimJob == null ? "" : victimJob.queue(),
            t.nodeName,
            evictorJob == null ? "" : evictorJob.namespace() + "/" + evictorJob.name(),
            evictorJob == null ? "" : evictorJob.queue(),
            t.resreq().toList(),
            why == null ? "" : why.decided().rule());
    evictions.add(eviction);
    recordEvent(
        "Pod",
        t.key(),
        "Warning",
        "Evict",
        "Pod is evicted, because of "
            + reason
            + (eviction.details().isEmpty() ? "" : ": " + eviction.details()));
    if (!t.jobId().isEmpty()) {
      recordEvent("PodGroup", t.jobId(), "Normal", "Evict", reason);
    }
  }

  /** Moves an allocated task to Binding and records the bind the cluster is sent. */
  void commitBind(TaskState t) {
    JobState job = jobs.get(t.jobId());
    NodeState node = nodes.get(t.nodeName);
    TaskStatus old = t.status;
    if (job != null) {
      job.setStatus(t, TaskStatus.BINDING);
    }
    if (node != null) {
      node.updateTask(t, old, TaskStatus.BINDING);
    }
    SessionResult.Bind bind = new SessionResult.Bind(t.key(), t.nodeName, preBind(t));
    binds.add(bind);
    committedBinds.accept(bind);
    recordEvent(
        "Pod",
        t.key(),
        "Normal",
        "Scheduled",
        "Successfully assigned " + t.namespace() + "/" + t.name() + " to " + t.nodeName);
  }

  /** The volume decisions every plugin assumed for the task, in plugin order. */
  private List<VolumeBinding> preBind(TaskState t) {
    if (preBinds.isEmpty()) {
      return List.of();
    }
    List<VolumeBinding> volumes = new ArrayList<>();
    for (PreBindFn fn : preBinds) {
      volumes.addAll(fn.volumes(t));
    }
    return volumes;
  }

  /** Binds every allocated task of {@code job} (a job that became ready). */
  void bindAllocated(JobState job) {
    for (TaskState other : job.taskStates()) {
      if (other.status == TaskStatus.ALLOCATED) {
        commitBind(other);
      }
    }
  }

  /** Who a victim is evicted for, and why it was allowed. */
  record EvictedFor(TaskInfo evictor, EvictionDeciders.Decided decided) {}

  void recordEvictionFor(TaskInfo victim, TaskInfo evictor, EvictionDeciders.Decided decided) {
    evictedFor.put(victim.uid(), new EvictedFor(evictor, decided));
  }

  void recordEvent(String kind, String key, String type, String reason, String message) {
    synchronized (events) {
      events.add(new SessionResult.Event(kind, key, type, reason, message));
    }
  }

  /** Events made before the ledger was (objects the session refused at open). */
  void recordEvents(List<SessionResult.Event> earlier) {
    synchronized (events) {
      events.addAll(earlier);
    }
  }

  /** A copy of what was decided so far. */
  Decisions decisions() {
    synchronized (events) {
      return new Decisions(List.copyOf(binds), List.copyOf(evictions), List.copyOf(events));
    }
  }

  /** The evictions decided so far, in order. */
  List<SessionResult.Eviction> evictions() {
    return List.copyOf(evictions);
  }

  /**
   * The pod group conditions set so far, per job UID (by condition type), as they are: for the
   * close, which reads them once every plugin has closed.
   */
  Map<String, Map<String, PodCondition>> podGroupConditions() {
    return Collections.unmodifiableMap(podGroupConditions);
  }

  void setPodGroupCondition(JobInfo job, PodCondition condition) {
    podGroupConditions
        .computeIfAbsent(job.uid(), k -> new LinkedHashMap<>(4))
        .put(condition.type(), condition);
  }
}
