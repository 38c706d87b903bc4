package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.framework.SessionResult;
import dev.caldera.support.resource.Resource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One session's side of {@link EvictionMemory}: leaves out of the victims the jobs at their
 * eviction budget and, for reclaim, the queues under backoff (saying so once per job and session);
 * keeps other jobs off capacity held for a preemptor; and at the end hands the memory what this
 * session evicted and what it now holds.
 */
final class EvictionGuard {

  static final String REASON_BUDGET = "EvictionBudgetExhausted";
  static final String REASON_BACKOFF = "ReclaimBackoff";
  static final String REASON_HELD = "CapacityHeld";

  private final SessionImpl session;
  private final EvictionRules rules;
  private final EvictionMemory memory;
  private final EvictionMemory.View view;
  private final Instant now;
  private final Map<String, List<EvictionMemory.Hold>> holdsByNode = new HashMap<>();
  private final Map<String, String> said = new HashMap<>();
  private Duration longestWindow;

  EvictionGuard(SessionImpl session, EvictionRules rules, EvictionMemory memory) {
    this.session = session;
    this.rules = rules;
    this.memory = memory;
    this.view = memory.open();
    this.now = session.now();
    this.longestWindow = rules.backoff();
    if (rules.budget() != null && rules.budget().window().compareTo(longestWindow) > 0) {
      longestWindow = rules.budget().window();
    }
    for (EvictionMemory.Hold h : view.holds()) {
      holdsByNode.computeIfAbsent(h.node(), n -> new ArrayList<>()).add(h);
    }
  }

  // ------------------------------------------------------------ victims

  /**
   * {@code victims} without the jobs at their budget and, for reclaim, the queues under backoff; of
   * a job with some budget left, at most that many (the first in victim order).
   */
  List<TaskInfo> filter(TaskInfo evictor, List<TaskInfo> victims, boolean reclaim) {
    if (victims.isEmpty()) {
      return victims;
    }
    Map<String, Integer> left = new HashMap<>();
    Map<String, Integer> offered = new HashMap<>();
    List<TaskInfo> kept = new ArrayList<>(victims.size());
    for (TaskInfo v : victims) {
      int l = left.computeIfAbsent(v.jobId(), id -> budgetLeft(session.job(id)));
      if (l > 0 && (!reclaim || !underBackoff(evictor, v))) {
        kept.add(v);
        offered.merge(v.jobId(), 1, Integer::sum);
      }
    }
    boolean trim = false;
    for (Map.Entry<String, Integer> e : offered.entrySet()) {
      trim |= e.getValue() > left.get(e.getKey());
    }
    if (trim) {
      Set<TaskInfo> chosen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      Map<String, Integer> taken = new HashMap<>();
      for (TaskInfo v : session.victimOrder(kept, evictor)) {
        int t = taken.getOrDefault(v.jobId(), 0);
        if (t < left.get(v.jobId())) {
          taken.put(v.jobId(), t + 1);
          chosen.add(v);
        }
      }
      kept.removeIf(v -> !chosen.contains(v));
    }
    return kept.size() == victims.size() ? victims : kept;
  }

  /** How many more pods the job may lose ({@link Integer#MAX_VALUE} without a budget). */
  private int budgetLeft(JobInfo job) {
    BudgetUse use = budgetUse(job);
    if (use == null || use.left() > 0) {
      return use == null ? Integer.MAX_VALUE : use.left();
    }
    sayOnce(
        job.uid() + "\u0000budget",
        job,
        "Warning",
        REASON_BUDGET,
        "not a victim: job " + job.uid() + " has had " + use.spent());
    return 0;
  }

  /**
   * How far a job is into its eviction budget.
   *
   * @param left how many more of its pods may be evicted now
   * @param spent what it has had, as a sentence's end ({@code 1 eviction within 1h, its eviction
   *     budget (annotation caldera.dev/eviction-budget 1/1h)})
   */
  record BudgetUse(int left, String spent) {}

  /**
   * The job's eviction budget as it stands (evictions remembered within its window and this
   * session's), or null when it has none. An annotation that does not read is said once.
   */
  BudgetUse budgetUse(JobInfo job) {
    if (job == null) {
      return null;
    }
    EvictionRules.Budget budget = rules.budget();
    String source = "configurations evictionBudget";
    String annotated = job.podGroup().metadata().annotations().get(EvictionRules.BUDGET_ANNOTATION);
    if (annotated != null) {
      try {
        budget = EvictionRules.parseBudget(annotated);
        source = "annotation " + EvictionRules.BUDGET_ANNOTATION;
      } catch (IllegalArgumentException e) {
        sayOnce(
            job.uid() + "\u0000invalid",
            job,
            "Warning",
            "InvalidEvictionBudget",
            "invalid annotation "
                + EvictionRules.BUDGET_ANNOTATION
                + ": "
                + e.getMessage()
                + (rules.budget() == null
                    ? "; the job has no eviction budget"
                    : "; the conf's budget " + rules.budget() + " applies"));
      }
    }
    if (budget == null) {
      return null;
    }
    if (budget.window().compareTo(longestWindow) > 0) {
      longestWindow = budget.window();
    }
    Instant since = now.minus(budget.window());
    int count = 0;
    for (EvictionMemory.Eviction e : view.evictions()) {
      if (e.victimJob().equals(job.uid()) && e.at().isAfter(since)) {
        count++;
      }
    }
    count += evictedThisSession(job);
    return new BudgetUse(
        Math.max(0, budget.evictions() - count),
        count
            + (count == 1 ? " eviction" : " evictions")
            + " within "
            + budget.text().substring(budget.text().indexOf('/') + 1)
            + ", its eviction budget ("
            + source
            + " "
            + budget
            + ")");
  }

  /**
   * The job's pods this session has evicted so far: Releasing, and not already being deleted when
   * the session opened (a statement's evictions count until it is discarded).
   */
  private int evictedThisSession(JobInfo job) {
    int n = 0;
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.RELEASING && t.pod().metadata().deletionTimestamp() == null) {
        n++;
      }
    }
    return n;
  }

  /** The victim's queue won resources from the reclaimer's queue by reclaim within the backoff. */
  private boolean underBackoff(TaskInfo reclaimer, TaskInfo victim) {
    if (rules.backoff().isZero()) {
      return false;
    }
    JobInfo reclaimerJob = session.job(reclaimer.jobId());
    JobInfo victimJob = session.job(victim.jobId());
    if (reclaimerJob == null || victimJob == null) {
      return false;
    }
    String loser = reclaimerJob.queue();
    String winner = victimJob.queue();
    Instant since = now.minus(rules.backoff());
    EvictionMemory.Eviction last = null;
    for (EvictionMemory.Eviction e : view.evictions()) {
      if (e.action().equals("reclaim")
          && e.victimQueue().equals(loser)
          && e.forQueue().equals(winner)
          && e.at().isAfter(since)
          && (last == null || e.at().isAfter(last.at()))) {
        last = e;
      }
    }
    if (last == null) {
      return false;
    }
    sayOnce(
        victimJob.uid() + "\u0000backoff\u0000" + loser,
        victimJob,
        "Normal",
        REASON_BACKOFF,
        "not a victim for queue "
            + loser
            + ": queue "
            + loser
            + " lost resources to queue "
            + winner
            + "'s reclaim at "
            + last.at()
            + " and does not reclaim from it until "
            + last.at().plus(rules.backoff())
            + " (configurations reclaimBackoff)");
    return true;
  }

  private void sayOnce(String key, JobInfo job, String type, String reason, String message) {
    boolean first;
    synchronized (said) {
      first = said.putIfAbsent(key, message) == null;
    }
    // A refusal that held unchanged in the previous session was said then.
    if (first && !message.equals(view.said().get(key))) {
      session.recordEvent("PodGroup", job.uid(), type, reason, message);
    }
  }

  // ------------------------------------------------------------ held capacity

  /**
   * Null when {@code task} may use {@code node} as far as holds go; otherwise why not: another
   * job's held capacity would be taken.
   */
  Status holdCheck(TaskInfo task, NodeInfo node) {
    List<EvictionMemory.Hold> holds = holdsByNode.get(node.name());
    if (holds == null) {
      return null;
    }
    Resource held = Resource.empty();
    EvictionMemory.Hold first = null;
    for (EvictionMemory.Hold h : holds) {
      if (!h.job().equals(task.jobId())) {
        held.add(h.amount());
        first = first == null ? h : first;
      }
    }
    if (first == null) {
      return null;
    }
    Resource free = Resource.empty();
    free.add(node.idle());
    free.add(node.releasing());
    for (String name : task.initResreq().resourceNames()) {
      double want = task.initResreq().get(name);
      if (want > 0 && want + held.get(name) > free.get(name) + Resource.EPSILON) {
        return Status.unschedulable(
            "node "
                + node.name()
                + " holds "
                + describe(first.amount(), node)
                + " for "
                + first.job()
                + " (freed by evictions for it)");
      }
    }
    return null;
  }

  static String describe(Resource amount) {
    return describe(amount, null);
  }

  /**
   * {@code amount} in words; a resource that counts cards of a model the node's labels name ({@code
   * nvidia.com/gpu.product: NVIDIA-H100} beside {@code nvidia.com/gpu}) is named by the model:
   * {@code 2 NVIDIA-H100}.
   */
  static String describe(Resource amount, NodeInfo node) {
    Map<String, String> labels = node == null ? Map.of() : node.node().metadata().labels();
    List<String> parts = new ArrayList<>();
    for (String name : amount.resourceNames()) {
      if (!"pods".equals(name) && amount.get(name) > 0) {
        String model = labels.get(name + ".product");
        parts.add(
            ResourceNames.quantity(name, amount.get(name))
                + " "
                + (model == null || model.isBlank() ? name : model));
      }
    }
    return String.join(", ", parts);
  }

  // ------------------------------------------------------------ the end of the session

  /** Hands the memory this session's evictions and the holds that go on. */
  void close() {
    List<EvictionMemory.Eviction> added = new ArrayList<>();
    Map<String, Map<String, Resource>> freedFor = new LinkedHashMap<>();
    Map<String, List<String>> forTasks = new LinkedHashMap<>();
    for (SessionResult.Eviction e : session.ledger().evictions()) {
      TaskInfo victim = session.taskByKey(e.pod());
      if (victim == null) {
        continue;
      }
      TaskInfo evictor = e.forPod().isEmpty() ? null : session.taskByKey(e.forPod());
      JobInfo victimJob = session.job(victim.jobId());
      JobInfo evictorJob = evictor == null ? null : session.job(evictor.jobId());
      added.add(
          new EvictionMemory.Eviction(
              now,
              victim.jobId(),
              victimJob == null ? "" : victimJob.queue(),
              evictorJob == null ? "" : evictorJob.uid(),
              evictorJob == null ? "" : evictorJob.queue(),
              e.action()));
      if (evictor != null && rules.holdSessions() > 0 && !victim.nodeName().isEmpty()) {
        freedFor
            .computeIfAbsent(evictor.jobId(), k -> new LinkedHashMap<>())
            .computeIfAbsent(victim.nodeName(), n -> Resource.empty())
            .add(victim.resreq());
        List<String> tasks = forTasks.computeIfAbsent(evictor.jobId(), k -> new ArrayList<>());
        if (!tasks.contains(evictor.key())) {
          tasks.add(evictor.key());
        }
      }
    }
    List<EvictionMemory.Hold> next = new ArrayList<>();
    for (EvictionMemory.Hold h : view.holds()) {
      if (h.lastSession() > view.session()
          && stillPending(h.tasks())
          && !freedFor.containsKey(h.job())) {
        next.add(h);
      }
    }
    freedFor.forEach(
        (job, byNode) ->
            byNode.forEach(
                (node, amount) ->
                    next.add(
                        new EvictionMemory.Hold(
                            node,
                            amount,
                            job,
                            List.copyOf(forTasks.get(job)),
                            view.session() + rules.holdSessions()))));
    for (EvictionMemory.Hold h : next) {
      long left = h.lastSession() - view.session();
      session.recordEvent(
          "PodGroup",
          h.job(),
          "Normal",
          REASON_HELD,
          "holding "
              + describe(h.amount(), session.node(h.node()))
              + " on "
              + h.node()
              + " for "
              + h.job()
              + " (freed by evictions for it) until it binds, or for "
              + left
              + (left == 1 ? " more session" : " more sessions"));
    }
    Map<String, String> saidNow;
    synchronized (said) {
      saidNow = new HashMap<>(said);
    }
    memory.close(now, longestWindow, added, next, saidNow);
  }

  /** Some of the tasks is in the session and still waits for a node (or is only pipelined). */
  private boolean stillPending(List<String> taskKeys) {
    for (String key : taskKeys) {
      TaskInfo t = session.taskByKey(key);
      if (t != null && (t.status() == TaskStatus.PENDING || t.status() == TaskStatus.PIPELINED)) {
        return true;
      }
    }
    return false;
  }
}
