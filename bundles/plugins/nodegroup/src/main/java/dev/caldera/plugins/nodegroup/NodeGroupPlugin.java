package dev.caldera.plugins.nodegroup;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.support.resource.Resource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's {@code nodegroup} plugin: queues are tied to groups of nodes (label {@value
 * #GROUP_LABEL}) by their {@code spec.affinity}. The predicate keeps a queue's tasks on the groups
 * it allows and within the optional per-group limits; the node order prefers required and preferred
 * groups; the event handlers keep each queue's per-group allocation.
 *
 * <p>A queue's per-group limits are its annotation {@code volcano.sh/nodegroup-resource-limits}, a
 * JSON object from group name to a resource list ({@code {"group-a": {"cpu": "8", "memory":
 * "32Gi"}}}; only the listed resources are limited). It is read as strict JSON by the shared
 * annotation reader ({@code AnnotationJson} of {@code caldera-api-support}), a repeated key keeping
 * its last value; an annotation that cannot be read refuses the queue's tasks on every node ({@code
 * node group resource limit annotation invalid}).
 */
public final class NodeGroupPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "nodegroup";

  /** The node label naming a node's group. */
  public static final String GROUP_LABEL = "volcano.sh/nodegroup-name";

  static final String ROOT_QUEUE = "root";

  static final String LABEL_NOT_FOUND = "node group label not found";
  static final String AFFINITY_NOT_SPECIFIED = "node group affinity not specified";
  static final String UNSATISFIED = "node does not satisfy the node group affinity";
  static final String LIMIT_INVALID = "node group resource limit annotation invalid";
  static final String LIMIT_EXCEEDED = "node group resource limit exceeded";

  private final NodeGroupArguments arguments;

  private Session session;
  private Map<String, QueueState> queues = Map.of();

  /** Group label by node index; null where the node has none. */
  private String[] groupByIndex = new String[0];

  public NodeGroupPlugin(NodeGroupArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** A queue's affinity (own or inherited), limits and allocation per group. */
  private static final class QueueState {
    final QueueInfo queue;
    GroupAffinity affinity;
    final GroupLimits limits;
    final String limitsError;
    final Map<String, Resource> allocated = new HashMap<>();

    QueueState(QueueInfo queue) {
      this.queue = queue;
      this.affinity = GroupAffinity.of(queue.queue());
      GroupLimits parsed;
      String error = null;
      try {
        parsed = GroupLimits.of(queue.queue());
      } catch (IllegalArgumentException e) {
        parsed = GroupLimits.NONE;
        error = e.getMessage();
      }
      this.limits = parsed;
      this.limitsError = error;
    }
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    Map<String, QueueState> states = new HashMap<>();
    for (QueueInfo q : session.queues()) {
      states.put(q.name(), new QueueState(q));
    }
    if (arguments.hierarchy()) {
      Map<String, GroupAffinity> own = new HashMap<>();
      states.forEach((name, state) -> own.put(name, state.affinity));
      for (QueueState state : states.values()) {
        if (state.affinity == null) {
          state.affinity = inherited(state.queue, states, own);
        }
      }
    }
    queues = states;

    List<NodeInfo> nodes = session.nodes();
    groupByIndex = new String[nodes.size()];
    for (NodeInfo n : nodes) {
      if (n.index() >= 0 && n.index() < groupByIndex.length) {
        groupByIndex[n.index()] = labelOf(n);
      }
    }
    initAllocated(session);

    extensions.add(ExtensionPoint.PREDICATE, this::check, this::checkKey);
    extensions.add(ExtensionPoint.NODE_ORDER, this::score, this::scoreKey);
    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            QueueState state = stateOf(task);
            if (state != null) {
              addAllocated(state, task, 1);
            }
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            QueueState state = stateOf(task);
            if (state != null) {
              addAllocated(state, task, -1);
            }
          }
        });
  }

  @Override
  public void onSessionClose(Session session) {
    queues = Map.of();
    this.session = null;
  }

  /**
   * The affinity of the nearest ancestor along {@code spec.parent} (empty means {@value
   * #ROOT_QUEUE}) that has one of its own; the walk stops at the root, at a missing parent and at a
   * cycle.
   */
  private static GroupAffinity inherited(
      QueueInfo queue, Map<String, QueueState> states, Map<String, GroupAffinity> own) {
    Set<String> visited = new HashSet<>();
    visited.add(queue.name());
    QueueInfo current = queue;
    while (!current.name().equals(ROOT_QUEUE)) {
      String parent = current.parent().isEmpty() ? ROOT_QUEUE : current.parent();
      QueueState parentState = states.get(parent);
      if (parentState == null || !visited.add(parent)) {
        return null;
      }
      GroupAffinity affinity = own.get(parent);
      if (affinity != null) {
        return affinity;
      }
      current = parentState.queue;
    }
    return null;
  }

  private void initAllocated(Session session) {
    for (JobInfo job : session.jobs()) {
      QueueState state = queues.get(job.queue());
      if (state == null) {
        continue;
      }
      for (TaskInfo task : job.tasks()) {
        if (task.status().isAllocated()) {
          addAllocated(state, task, 1);
        }
      }
    }
  }

  private void addAllocated(QueueState state, TaskInfo task, int sign) {
    if (task.nodeName().isEmpty()) {
      return;
    }
    NodeInfo node = session.node(task.nodeName());
    String group = node == null ? null : groupOf(node);
    if (group == null) {
      return;
    }
    Resource allocated = state.allocated.get(group);
    if (sign > 0) {
      if (allocated == null) {
        allocated = Resource.empty();
        state.allocated.put(group, allocated);
      }
      allocated.add(task.resreq());
    } else if (allocated != null) {
      allocated.sub(task.resreq());
    }
  }

  private QueueState stateOf(TaskInfo task) {
    JobInfo job = session.job(task.jobId());
    return job == null ? null : queues.get(job.queue());
  }

  /** The predicate; every refusal is UnschedulableAndUnresolvable. */
  Status check(TaskInfo task, NodeInfo node) {
    JobInfo job = session.job(task.jobId());
    if (job == null) {
      return Status.error("job " + task.jobId() + " not found in session");
    }
    QueueState state = queues.get(job.queue());
    if (state != null && state.limitsError != null) {
      return Status.unresolvable(LIMIT_INVALID);
    }
    boolean unsetAffinity = state == null || state.affinity == null || state.affinity.isEmpty();
    String group = groupOf(node);
    if (group == null) {
      if (!arguments.strict() && unsetAffinity) {
        return Status.OK;
      }
      return Status.unresolvable(LABEL_NOT_FOUND);
    }
    if (unsetAffinity) {
      return Status.unresolvable(AFFINITY_NOT_SPECIFIED);
    }
    if (!state.affinity.allows(group)) {
      return Status.unresolvable(UNSATISFIED);
    }
    if (!withinLimit(state, task, group)) {
      return Status.unresolvable(LIMIT_EXCEEDED);
    }
    return Status.OK;
  }

  /**
   * The {@link dev.caldera.api.extension.NodeLocality} key of {@link #check}: the job's queue,
   * whose affinity decides with the node's group; null where the queue has per-group limits (they
   * read what the queue holds in each group, which allocations anywhere in the group change) or the
   * job is unknown.
   */
  private Object checkKey(TaskInfo task) {
    JobInfo job = session.job(task.jobId());
    if (job == null) {
      return null;
    }
    QueueState state = queues.get(job.queue());
    if (state != null && state.limitsError == null && !state.limits.isEmpty()) {
      return null;
    }
    return job.queue();
  }

  /** The key of {@link #score}: the job's queue (its affinity), or null for an unknown job. */
  private Object scoreKey(TaskInfo task) {
    JobInfo job = session.job(task.jobId());
    return job == null ? null : job.queue();
  }

  private static boolean withinLimit(QueueState state, TaskInfo task, String group) {
    if (state.limits.isEmpty()) {
      return true;
    }
    GroupLimits.Limit limit = state.limits.get(group);
    if (limit == null) {
      return true;
    }
    Resource allocated = state.allocated.get(group);
    Resource used = allocated == null ? Resource.empty() : allocated.copy();
    used.add(task.resreq());
    return GroupLimits.exceeded(used, limit).isEmpty();
  }

  /** The node order: 0 without a group label, a job or an affinity. */
  double score(TaskInfo task, NodeInfo node) {
    String group = groupOf(node);
    if (group == null) {
      return 0;
    }
    JobInfo job = session.job(task.jobId());
    if (job == null) {
      return 0;
    }
    QueueState state = queues.get(job.queue());
    if (state == null || state.affinity == null) {
      return 0;
    }
    return state.affinity.score(group, arguments.enablePreferredOrder());
  }

  private String groupOf(NodeInfo node) {
    int i = node.index();
    if (i >= 0 && i < groupByIndex.length) {
      return groupByIndex[i];
    }
    return labelOf(node);
  }

  private static String labelOf(NodeInfo node) {
    return node.node().metadata().labels().get(GROUP_LABEL);
  }
}
