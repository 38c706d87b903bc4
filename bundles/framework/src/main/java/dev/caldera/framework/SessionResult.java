package dev.caldera.framework;

import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.CardUse;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.Quantity;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one session decided, for a cluster writer to apply. Lists are in decision order.
 *
 * @param podGroups pod group key → status to write, for every job whose status changed or was
 *     recomputed
 * @param queueAllocated queue name → {@code status.allocated}, for every queue in the session
 * @param pods pod key → status update (conditions, nominated node) for pods whose status changed
 * @param waiting the pod groups still waiting after the session, in the order the scheduler tries
 *     them (queue order, then job order within a queue), each with what stopped it; pod groups of
 *     missing queues last
 * @param queueQuotas queue name → the quotas plugins keep of it (capacity-card: cards per model),
 *     allocated against limit; see {@link dev.caldera.api.Session#reportQueueQuota}
 * @param queueStates queue name → the {@code status.state} the session moved it to, for the queues
 *     whose state changed (a Closing queue of which nothing runs any more: Closed); a writer beside
 *     Volcano's queue controller leaves them to it
 */
public record SessionResult(
    String sessionUid,
    List<Bind> binds,
    List<Eviction> evictions,
    List<Pipelined> pipelined,
    Map<String, PodGroupStatus> podGroups,
    Map<String, Map<String, Quantity>> queueAllocated,
    Map<String, PodStatusUpdate> pods,
    List<Event> events,
    SessionStats stats,
    List<Waiting> waiting,
    Map<String, List<Blocker.Figure>> queueQuotas,
    Map<String, String> queueStates,
    Map<String, List<CardUse>> nodeCards) {

  /**
   * @param nodeCards node name → how its cards are used, as a plugin that knows cards reported it
   *     (capacity-card); empty without one
   */
  public SessionResult {
    waiting = waiting == null ? List.of() : List.copyOf(waiting);
    queueQuotas = queueQuotas == null ? Map.of() : Map.copyOf(queueQuotas);
    queueStates = queueStates == null ? Map.of() : Map.copyOf(queueStates);
    nodeCards = nodeCards == null ? Map.of() : Map.copyOf(nodeCards);
  }

  /** A result in which no queue changed state, without card use per node. */
  public SessionResult(
      String sessionUid,
      List<Bind> binds,
      List<Eviction> evictions,
      List<Pipelined> pipelined,
      Map<String, PodGroupStatus> podGroups,
      Map<String, Map<String, Quantity>> queueAllocated,
      Map<String, PodStatusUpdate> pods,
      List<Event> events,
      SessionStats stats,
      List<Waiting> waiting,
      Map<String, List<Blocker.Figure>> queueQuotas) {
    this(
        sessionUid,
        binds,
        evictions,
        pipelined,
        podGroups,
        queueAllocated,
        pods,
        events,
        stats,
        waiting,
        queueQuotas,
        Map.of(),
        Map.of());
  }

  /** A result without quotas kept by plugins. */
  public SessionResult(
      String sessionUid,
      List<Bind> binds,
      List<Eviction> evictions,
      List<Pipelined> pipelined,
      Map<String, PodGroupStatus> podGroups,
      Map<String, Map<String, Quantity>> queueAllocated,
      Map<String, PodStatusUpdate> pods,
      List<Event> events,
      SessionStats stats,
      List<Waiting> waiting) {
    this(
        sessionUid,
        binds,
        evictions,
        pipelined,
        podGroups,
        queueAllocated,
        pods,
        events,
        stats,
        waiting,
        Map.of());
  }

  /** A result without waiting pod groups (a writer's test, a replayed session). */
  public SessionResult(
      String sessionUid,
      List<Bind> binds,
      List<Eviction> evictions,
      List<Pipelined> pipelined,
      Map<String, PodGroupStatus> podGroups,
      Map<String, Map<String, Quantity>> queueAllocated,
      Map<String, PodStatusUpdate> pods,
      List<Event> events,
      SessionStats stats) {
    this(
        sessionUid,
        binds,
        evictions,
        pipelined,
        podGroups,
        queueAllocated,
        pods,
        events,
        stats,
        List.of());
  }

  /**
   * A pod group that still waits after the session.
   *
   * @param podGroup {@code namespace/name}
   * @param queue the queue it names
   * @param position 1 for the first its queue tries; 0 when it is in no line (missing queue)
   * @param phase its phase after the session
   * @param minMember {@code spec.minMember}
   * @param minResources {@code spec.minResources}, empty when unset
   * @param tried whether an action tried it this session (else it kept its place in line)
   * @param blocker what stopped it
   */
  public record Waiting(
      String podGroup,
      String queue,
      int position,
      String phase,
      int minMember,
      Map<String, Quantity> minResources,
      boolean tried,
      Blocker blocker) {
    public Waiting {
      minResources = minResources == null ? Map.of() : Map.copyOf(minResources);
    }
  }

  /**
   * A pod bound to a node.
   *
   * @param volumes the claims to settle before the pod is bound (static volumes to bind, claims to
   *     provision on the node); empty for a pod without unbound claims
   */
  public record Bind(String pod, String node, List<VolumeBinding> volumes) {
    public Bind {
      volumes = volumes == null ? List.of() : List.copyOf(volumes);
    }

    /** A bind without volumes to settle. */
    public Bind(String pod, String node) {
      this(pod, node, List.of());
    }
  }

  /**
   * A pod evicted by an action, to make room for another pod.
   *
   * @param forPod the pod it makes room for; empty when none (shuffle)
   * @param podGroup the victim's pod group ({@code namespace/name}), empty when it has none
   * @param queue the victim's queue, empty when unknown
   * @param node where the victim ran
   * @param forPodGroup the evictor's pod group, empty when none
   * @param forQueue the evictor's queue, empty when none
   * @param freed what the eviction frees on the node (the victim's requests)
   * @param rule the deciding rule ({@code tidal.policy:18 (any may reclaim training)}), else {@code
   *     plugin NAME} for the plugins whose victim functions decided; empty when none did
   */
  public record Eviction(
      String pod,
      String action,
      String forPod,
      String podGroup,
      String queue,
      String node,
      String forPodGroup,
      String forQueue,
      Map<String, Quantity> freed,
      String rule) {

    public Eviction {
      podGroup = podGroup == null ? "" : podGroup;
      queue = queue == null ? "" : queue;
      node = node == null ? "" : node;
      forPodGroup = forPodGroup == null ? "" : forPodGroup;
      forQueue = forQueue == null ? "" : forQueue;
      freed =
          freed == null
              ? Map.of()
              : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(freed));
      rule = rule == null ? "" : rule;
    }

    /** An eviction without its details (a writer's test, a replayed session). */
    public Eviction(String pod, String action, String forPod) {
      this(pod, action, forPod, "", "", "", "", "", Map.of(), "");
    }

    /**
     * One readable sentence: {@code reclaim evicted ns/p from queue training on node-3 for ns/q
     * (queue inference), freeing cpu 8, nvidia.com/gpu 1; rule tidal.policy:18 (any may reclaim
     * training)}.
     */
    public String narrative() {
      String details = details();
      return action + " evicted " + pod + (details.isEmpty() ? "" : " " + details);
    }

    /**
     * What {@link #narrative} says after the pod: {@code from queue training on node-3 for ns/q
     * (queue inference), freeing ...; rule ...}; empty when nothing is known.
     */
    public String details() {
      StringBuilder out = new StringBuilder();
      if (!queue.isEmpty()) {
        out.append("from queue ").append(queue);
      }
      if (!node.isEmpty()) {
        out.append(out.length() == 0 ? "" : " ").append("on ").append(node);
      }
      if (!forPod.isEmpty()) {
        out.append(out.length() == 0 ? "" : " ").append("for ").append(forPod);
        if (!forQueue.isEmpty()) {
          out.append(" (queue ").append(forQueue).append(')');
        }
      }
      if (!freed.isEmpty()) {
        out.append(out.length() == 0 ? "" : ", ").append("freeing ");
        String sep = "";
        for (Map.Entry<String, Quantity> e : freed.entrySet()) {
          out.append(sep).append(e.getKey()).append(' ').append(e.getValue());
          sep = ", ";
        }
      }
      if (!rule.isEmpty()) {
        out.append(out.length() == 0 ? "" : "; ").append("rule ").append(rule);
      }
      return out.toString();
    }
  }

  /** A pod pipelined onto a node (waits for resources being released). */
  public record Pipelined(String pod, String node) {}

  /** A pod group's status after the session. */
  public record PodGroupStatus(
      String phase,
      int running,
      int succeeded,
      int failed,
      List<PodCondition> conditions,
      boolean changed) {}

  /** A pod's status change: its PodScheduled condition and nominated node. */
  public record PodStatusUpdate(PodCondition condition, String nominatedNodeName) {}

  /** An event recorded on an object ({@code Pod}, {@code PodGroup} or {@code Queue}). */
  public record Event(String kind, String object, String type, String reason, String message) {}

  /**
   * Counters of the work done, for {@code caldera bench}.
   *
   * @param tasksConsidered tasks that went through node filtering
   * @param nodesFiltered predicate evaluations (task × node)
   * @param nodesScored score evaluations (task × node)
   * @param nodesReused per-node answers (predicate and score of a task on a node) that allocate
   *     reused from an earlier task of the same node-local key instead of evaluating afresh
   */
  public record SessionStats(
      long tasksConsidered,
      long nodesFiltered,
      long nodesScored,
      long nodesReused,
      double durationMillis,
      Map<String, Long> actionNanos,
      Map<String, Long> functionNanos) {

    /**
     * @param actionNanos action name → nanoseconds it ran, in conf order
     * @param functionNanos {@code plugin/point} → nanoseconds spent in that plugin's function
     *     (per-node functions, {@code onSessionOpen} and {@code onSessionClose}), in key order
     */
    public SessionStats {
      actionNanos =
          actionNanos == null
              ? Map.of()
              : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(actionNanos));
      functionNanos =
          functionNanos == null
              ? Map.of()
              : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(functionNanos));
    }

    /** Counters without reuse. */
    public SessionStats(
        long tasksConsidered,
        long nodesFiltered,
        long nodesScored,
        double durationMillis,
        Map<String, Long> actionNanos,
        Map<String, Long> functionNanos) {
      this(
          tasksConsidered,
          nodesFiltered,
          nodesScored,
          0,
          durationMillis,
          actionNanos,
          functionNanos);
    }

    /** Counters without reuse and timings. */
    public SessionStats(
        long tasksConsidered, long nodesFiltered, long nodesScored, double durationMillis) {
      this(tasksConsidered, nodesFiltered, nodesScored, 0, durationMillis, Map.of(), Map.of());
    }
  }

  /** This result without {@code sent}, binds a writer took while the session ran. */
  public SessionResult withoutBinds(Collection<Bind> sent) {
    if (sent.isEmpty()) {
      return this;
    }
    Set<Bind> left = new HashSet<>(sent);
    return with(binds.stream().filter(b -> !left.contains(b)).toList(), stats);
  }

  /** This result with the session's timings in its stats. */
  public SessionResult withTimings(Map<String, Long> actionNanos, Map<String, Long> functionNanos) {
    SessionStats s = stats == null ? new SessionStats(0, 0, 0, 0) : stats;
    return with(
        binds,
        new SessionStats(
            s.tasksConsidered(),
            s.nodesFiltered(),
            s.nodesScored(),
            s.nodesReused(),
            s.durationMillis(),
            actionNanos,
            functionNanos));
  }

  private SessionResult with(List<Bind> binds, SessionStats stats) {
    return new SessionResult(
        sessionUid,
        binds,
        evictions,
        pipelined,
        podGroups,
        queueAllocated,
        pods,
        events,
        stats,
        waiting,
        queueQuotas,
        queueStates,
        nodeCards);
  }
}
