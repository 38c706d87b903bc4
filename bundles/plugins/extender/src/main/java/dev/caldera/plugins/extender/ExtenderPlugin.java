package dev.caldera.plugins.extender;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Volcano's {@code extender} plugin: delegates scheduling decisions to an external HTTP service.
 * Each configured verb registers one function, which POSTs a JSON request to {@code
 * <urlPrefix>/<verb>} and turns the JSON answer into the function's result:
 *
 * <table>
 *   <caption>Functions, requests and what a failed call gives</caption>
 *   <tr><th>verb</th><th>function</th><th>request</th><th>failure, ignorable</th>
 *       <th>failure, not ignorable</th></tr>
 *   <tr><td>predicate</td><td>Predicate</td><td>{task, node}</td><td>pass</td>
 *       <td>Error</td></tr>
 *   <tr><td>prioritize</td><td>BatchNodeOrder</td><td>{task, nodes}</td><td>no scores</td>
 *       <td>error</td></tr>
 *   <tr><td>preemptable, reclaimable</td><td>Preemptable, Reclaimable</td>
 *       <td>{evictor, evictees}</td><td>no victims, permit</td><td>reject</td></tr>
 *   <tr><td>jobEnqueueable</td><td>JobEnqueueable</td><td>{job}</td><td>permit</td>
 *       <td>reject</td></tr>
 *   <tr><td>jobEnqueued</td><td>JobEnqueued</td><td>{job}</td><td colspan="2">ignored</td></tr>
 *   <tr><td>queueOverused</td><td>Overused</td><td>{queue}</td><td>false</td><td>true</td></tr>
 *   <tr><td>jobReady</td><td>JobReady</td><td>{job}</td><td>false</td><td>true</td></tr>
 *   <tr><td>allocateFunc, deallocateFunc</td><td>EventHandler</td><td>{task}</td>
 *       <td>ignored</td><td>allocation fails</td></tr>
 * </table>
 *
 * <p>With managed resources configured, the task-level functions answer without a call for tasks
 * that request none of them: predicate passes, prioritize adds nothing, preemptable and reclaimable
 * abstain, event handlers do nothing. {@code onSessionOpen} is sent before anything is registered;
 * if it fails and the extender is not ignorable, nothing is registered. {@code onSessionClose} is
 * sent when the session closes; its failure is only logged.
 *
 * <p>Calls block the scheduling thread for up to {@code httpTimeout}. As in Volcano, prioritize
 * makes one call per task for all candidate nodes, while predicate makes one call per task and
 * node.
 */
public final class ExtenderPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "extender";

  private static final System.Logger LOG = System.getLogger(ExtenderPlugin.class.getName());

  private final ExtenderArguments arguments;
  private final ExtenderClient client;
  private final ManagedResources managed;
  private final Set<Verb> warned = ConcurrentHashMap.newKeySet();

  // The JSON of the task being placed: predicate sends it once per node, so it is kept while the
  // task's state stays the same.
  private volatile CachedTask lastTask;

  private record CachedTask(
      TaskInfo task, TaskStatus status, String nodeName, boolean evicted, String json) {}

  @FunctionalInterface
  private interface Decoder<T> {
    T decode(JsonNode answer) throws ExtenderException;
  }

  ExtenderPlugin(ExtenderArguments arguments, ExtenderClient client) {
    this.arguments = arguments;
    this.client = client;
    this.managed = new ManagedResources(arguments.managedResources());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    if (arguments.has(Verb.ON_SESSION_OPEN)) {
      try {
        call(Verb.ON_SESSION_OPEN, g -> WireFormat.sessionOpenRequest(g, session), null);
      } catch (ExtenderException e) {
        failed(Verb.ON_SESSION_OPEN, e);
        if (!arguments.ignorable()) {
          return;
        }
      }
    }
    if (arguments.has(Verb.PREDICATE)) {
      extensions.add(ExtensionPoint.PREDICATE, this::predicate);
    }
    if (arguments.has(Verb.PRIORITIZE)) {
      extensions.add(ExtensionPoint.BATCH_NODE_ORDER, this::prioritize);
    }
    if (arguments.has(Verb.PREEMPTABLE)) {
      extensions.add(
          ExtensionPoint.PREEMPTABLE,
          (evictor, tasks) -> evictable(Verb.PREEMPTABLE, evictor, tasks));
    }
    if (arguments.has(Verb.RECLAIMABLE)) {
      extensions.add(
          ExtensionPoint.RECLAIMABLE,
          (evictor, tasks) -> evictable(Verb.RECLAIMABLE, evictor, tasks));
    }
    if (arguments.has(Verb.JOB_ENQUEUEABLE)) {
      extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, this::jobEnqueueable);
    }
    if (arguments.has(Verb.JOB_ENQUEUED)) {
      extensions.add(ExtensionPoint.JOB_ENQUEUED, this::jobEnqueued);
    }
    if (arguments.has(Verb.QUEUE_OVERUSED)) {
      extensions.add(ExtensionPoint.OVERUSED, this::overused);
    }
    if (arguments.has(Verb.JOB_READY)) {
      extensions.add(ExtensionPoint.JOB_READY, this::jobReady);
    }
    if (arguments.has(Verb.ALLOCATE_FUNC) || arguments.has(Verb.DEALLOCATE_FUNC)) {
      extensions.add(ExtensionPoint.EVENT_HANDLER, new TaskEvents());
    }
  }

  @Override
  public void onSessionClose(Session session) {
    if (arguments.has(Verb.ON_SESSION_CLOSE)) {
      try {
        call(
            Verb.ON_SESSION_CLOSE,
            g -> {
              g.writeStartObject();
              g.writeEndObject();
            },
            null);
      } catch (ExtenderException e) {
        failed(Verb.ON_SESSION_CLOSE, e);
      }
    }
  }

  // ------------------------------------------------------------ functions

  /**
   * Predicate: passes when the answer has no message; otherwise fails with the answer's code
   * (Volcano's status codes: 1 Error, 2 Unschedulable, 3 UnschedulableAndUnresolvable, 4 Wait, 5
   * Skip), where 0 or an unknown code counts as Error.
   */
  Status predicate(TaskInfo task, NodeInfo node) {
    if (!managed.interested(task)) {
      return Status.OK;
    }
    String taskJson = taskJson(task);
    Responses.Predicate answer;
    try {
      answer =
          call(
              Verb.PREDICATE,
              g -> {
                g.writeStartObject();
                g.writeFieldName("task");
                g.writeRawValue(taskJson);
                g.writeFieldName("node");
                WireFormat.node(g, node);
                g.writeEndObject();
              },
              Responses.Predicate::decode);
    } catch (ExtenderException e) {
      failed(Verb.PREDICATE, e);
      return arguments.ignorable() ? Status.OK : Status.error(e.getMessage());
    }
    if (answer.errorMessage().isEmpty()) {
      return Status.OK;
    }
    return new Status(statusCode(answer.code()), List.of(answer.errorMessage()));
  }

  /** Batch node order: adds the answer's score of each node (by name) to its slot. */
  Status prioritize(TaskInfo task, List<NodeInfo> nodes, double[] scores) {
    if (!managed.interested(task)) {
      return Status.OK;
    }
    String taskJson = taskJson(task);
    Responses.Prioritize answer;
    try {
      answer =
          call(
              Verb.PRIORITIZE,
              g -> {
                g.writeStartObject();
                g.writeFieldName("task");
                g.writeRawValue(taskJson);
                g.writeFieldName("nodes");
                g.writeStartArray();
                for (NodeInfo n : nodes) {
                  WireFormat.node(g, n);
                }
                g.writeEndArray();
                g.writeEndObject();
              },
              Responses.Prioritize::decode);
    } catch (ExtenderException e) {
      failed(Verb.PRIORITIZE, e);
      return arguments.ignorable() ? Status.OK : Status.error(e.getMessage());
    }
    // As in Volcano, an answer with a message or without scores is an error even when ignorable.
    if (!answer.errorMessage().isEmpty() || answer.nodeScore() == null) {
      String message =
          answer.errorMessage().isEmpty()
              ? "extender " + arguments.verb(Verb.PRIORITIZE) + " answered without nodeScore"
              : answer.errorMessage();
      return Status.error(message);
    }
    for (int i = 0; i < nodes.size(); i++) {
      Double score = answer.nodeScore().get(nodes.get(i).name());
      if (score != null) {
        scores[i] += score;
      }
    }
    return Status.OK;
  }

  /**
   * Preemptable or reclaimable: the victims the answer names (by UID, among the candidates, in the
   * answer's order) with its vote: above 0 permit, 0 abstain, below 0 reject.
   */
  Victims evictable(Verb verb, TaskInfo evictor, List<TaskInfo> candidates) {
    if (!managed.interested(evictor)) {
      return Victims.abstain();
    }
    String what = verb == Verb.PREEMPTABLE ? "PreemptableResponse" : "ReclaimableResponse";
    Responses.Evictable answer;
    try {
      answer =
          call(
              verb,
              g -> {
                g.writeStartObject();
                g.writeFieldName("evictor");
                WireFormat.task(g, evictor);
                g.writeFieldName("evictees");
                g.writeStartArray();
                for (TaskInfo t : candidates) {
                  WireFormat.task(g, t);
                }
                g.writeEndArray();
                g.writeEndObject();
              },
              root -> Responses.Evictable.decode(root, what));
    } catch (ExtenderException e) {
      failed(verb, e);
      return arguments.ignorable() ? Victims.permit(List.of()) : Victims.reject();
    }
    Map<String, TaskInfo> byUid = new LinkedHashMap<>();
    for (TaskInfo t : candidates) {
      byUid.putIfAbsent(t.uid(), t);
    }
    List<TaskInfo> victims = new ArrayList<>();
    for (String uid : answer.victimUids()) {
      TaskInfo t = byUid.remove(uid);
      if (t != null) {
        victims.add(t);
      }
    }
    return new Victims(victims, vote(answer.status()));
  }

  /** Job enqueueable: the answer's vote. */
  Vote jobEnqueueable(JobInfo job) {
    try {
      return vote(
          call(Verb.JOB_ENQUEUEABLE, jobRequest(job), Responses.JobEnqueueable::decode).status());
    } catch (ExtenderException e) {
      failed(Verb.JOB_ENQUEUEABLE, e);
      return arguments.ignorable() ? Vote.PERMIT : Vote.REJECT;
    }
  }

  /** Job enqueued: tells the extender; the answer is not read. */
  void jobEnqueued(JobInfo job) {
    try {
      call(Verb.JOB_ENQUEUED, jobRequest(job), null);
    } catch (ExtenderException e) {
      failed(Verb.JOB_ENQUEUED, e);
    }
  }

  /** Queue overused: the answer's {@code overused}. */
  boolean overused(QueueInfo queue) {
    try {
      return call(
              Verb.QUEUE_OVERUSED,
              g -> {
                g.writeStartObject();
                g.writeFieldName("queue");
                WireFormat.queue(g, queue);
                g.writeEndObject();
              },
              Responses.QueueOverused::decode)
          .overused();
    } catch (ExtenderException e) {
      failed(Verb.QUEUE_OVERUSED, e);
      return !arguments.ignorable();
    }
  }

  /** Job ready: the answer's {@code status}. */
  boolean jobReady(JobInfo job) {
    try {
      return call(Verb.JOB_READY, jobRequest(job), Responses.JobReady::decode).status();
    } catch (ExtenderException e) {
      failed(Verb.JOB_READY, e);
      return !arguments.ignorable();
    }
  }

  /** The event handler: {@code allocateFunc} and {@code deallocateFunc} with {@code {task}}. */
  private final class TaskEvents implements EventHandler {
    @Override
    public Status allocated(TaskInfo task) {
      if (!arguments.has(Verb.ALLOCATE_FUNC) || !managed.interested(task)) {
        return Status.OK;
      }
      Responses.EventHandler answer;
      try {
        answer = call(Verb.ALLOCATE_FUNC, taskRequest(task), Responses.EventHandler::decode);
      } catch (ExtenderException e) {
        failed(Verb.ALLOCATE_FUNC, e);
        return arguments.ignorable() ? Status.OK : Status.error(e.getMessage());
      }
      return answer.errorMessage().isEmpty() ? Status.OK : Status.error(answer.errorMessage());
    }

    @Override
    public void deallocated(TaskInfo task) {
      if (!arguments.has(Verb.DEALLOCATE_FUNC) || !managed.interested(task)) {
        return;
      }
      try {
        call(Verb.DEALLOCATE_FUNC, taskRequest(task), null);
      } catch (ExtenderException e) {
        failed(Verb.DEALLOCATE_FUNC, e);
      }
    }
  }

  // ------------------------------------------------------------ helpers

  private <T> T call(Verb verb, WireFormat.Body request, Decoder<T> decoder)
      throws ExtenderException {
    JsonNode answer =
        client.post(arguments.verb(verb), WireFormat.encode(request), decoder != null);
    return decoder == null ? null : decoder.decode(answer);
  }

  private static WireFormat.Body jobRequest(JobInfo job) {
    return g -> {
      g.writeStartObject();
      g.writeFieldName("job");
      WireFormat.job(g, job);
      g.writeEndObject();
    };
  }

  private static WireFormat.Body taskRequest(TaskInfo task) {
    return g -> writeTaskRequest(g, task);
  }

  private static void writeTaskRequest(JsonGenerator g, TaskInfo task) throws IOException {
    g.writeStartObject();
    g.writeFieldName("task");
    WireFormat.task(g, task);
    g.writeEndObject();
  }

  private String taskJson(TaskInfo task) {
    CachedTask c = lastTask;
    if (c != null
        && c.task() == task
        && c.status() == task.status()
        && c.nodeName().equals(task.nodeName())
        && c.evicted() == task.evictionOccurred()) {
      return c.json();
    }
    String json = WireFormat.encodeToString(g -> WireFormat.task(g, task));
    lastTask = new CachedTask(task, task.status(), task.nodeName(), task.evictionOccurred(), json);
    return json;
  }

  /** Volcano's vote integers: above 0 permit, 0 abstain, below 0 reject. */
  static Vote vote(long status) {
    return status > 0 ? Vote.PERMIT : status == 0 ? Vote.ABSTAIN : Vote.REJECT;
  }

  /** Volcano's status codes for a failed predicate; 0 and unknown codes count as Error. */
  static Status.Code statusCode(long code) {
    if (code == 2) {
      return Status.Code.UNSCHEDULABLE;
    } else if (code == 3) {
      return Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
    } else if (code == 4) {
      return Status.Code.WAIT;
    } else if (code == 5) {
      return Status.Code.SKIP;
    }
    return Status.Code.ERROR;
  }

  // The first failure of each verb in a session is a warning; repeats (one per node or task) are
  // debug output, so that an unreachable extender does not flood the log.
  private void failed(Verb verb, ExtenderException e) {
    System.Logger.Level level =
        warned.add(verb) ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG;
    LOG.log(
        level,
        "extender {0} failed{1}: {2}",
        arguments.verb(verb),
        arguments.ignorable() ? " (ignored)" : "",
        e.getMessage());
  }
}
