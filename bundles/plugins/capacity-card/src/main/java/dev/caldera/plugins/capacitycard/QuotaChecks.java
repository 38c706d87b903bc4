package dev.caldera.plugins.capacitycard;

import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The quota checks of enqueue, allocation, reclaim and node filtering, each refusal explained in a
 * Warning event (on the pod group for enqueue, on the pod for allocation).
 */
final class QuotaChecks {

  /** Counts are whole cards and CPU/memory are integers; this only absorbs rounding. */
  static final double EPS = 1e-6;

  private final CardLedger ledger;
  private final Refusals refusals;
  private final double factor;
  private final QueueReports reports;

  QuotaChecks(CardLedger ledger, Refusals refusals) {
    this(ledger, refusals, new QueueReports());
  }

  /**
   * @param reports the factory's memory of what was reported (an inadmissible pod group's event
   *     once)
   */
  QuotaChecks(CardLedger ledger, Refusals refusals, QueueReports reports) {
    this.ledger = ledger;
    this.refusals = refusals;
    this.factor = ledger.arguments.overCommitFactor();
    this.reports = reports;
  }

  /**
   * JobEnqueueableFn: an Open queue, and the job's minimum + allocated + inqueue − elastic within
   * quota × overCommitFactor, for CPU, memory and each card (a multi-model minimum against the sum
   * of its models).
   */
  Vote enqueueable(JobInfo job) {
    QueueAccount account = ledger.account(job.queue());
    if (account == null || !account.queue.isOpen()) {
      return Vote.REJECT;
    }
    for (String problem : ledger.requestProblems(job)) {
      refusals.warn(Refusals.POD_GROUP, job.uid(), Refusals.INVALID_CARD_ANNOTATION, problem);
    }
    reportPodProblems(job);
    String unknown = ledger.unknownCards(job);
    JobDemand min = unknown != null ? null : ledger.enqueueDemand(job);
    Refusal refusal =
        unknown != null
            ? new Refusal(Refusals.INVALID_CARD_ANNOTATION, unknown, List.of())
            : enqueueRefusal(account, min);
    Inadmissible never = min == null ? null : Inadmissible.of(job, account, min, ledger, factor);
    if (never != null) {
      never.report(refusals.session(), job, reports);
      if (refusal == null) {
        refusal = new Refusal(Inadmissible.REASON, never.message(), never.figures());
      }
    }
    if (refusal == null) {
      return Vote.PERMIT;
    }
    if (!Inadmissible.REASON.equals(refusal.reason())) {
      // An Inadmissible pod group has its one event already (Inadmissible.report).
      refusals.warn(Refusals.POD_GROUP, job.uid(), refusal.reason(), refusal.message());
    }
    refusals
        .session()
        .reportBlocker(
            job,
            unknown != null
                ? unknownCardBlocker(unknown)
                : never != null
                    ? Blocker.of(Blocker.Stage.INADMISSIBLE, never.message(), never.figures())
                    : blocker(refusal.reason(), refusal.message(), refusal.figures()));
    // Only the pods still waiting hear of it: a replica that already runs is not refused anything.
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING) {
        refusals.warn(Refusals.POD, t.key(), Refusals.FAILED_SCHEDULING, refusal.message());
      }
    }
    return Vote.REJECT;
  }

  /** An event's reason and message, and the blocker's figures (Kubernetes units). */
  record Refusal(String reason, String message, List<Blocker.Figure> figures) {}

  /** The first limit the minimum would exceed at enqueue; null if none. */
  Refusal enqueueRefusal(QueueAccount a, JobDemand min) {
    if (min.cpu() > 0) {
      double total = min.cpu() + a.cpuAllocated + a.cpuInqueue - a.cpuElastic;
      if (total > a.cpuQuota * factor + EPS) {
        return new Refusal(
            Refusals.INSUFFICIENT_CPU_QUOTA,
            Refusals.cpu(a.name, min.cpu(), total, a.cpuQuota * factor),
            List.of(cpuFigure(min.cpu(), total, a.cpuQuota * factor)));
      }
    }
    if (min.memory() > 0) {
      double total = min.memory() + a.memoryAllocated + a.memoryInqueue - a.memoryElastic;
      if (total > a.memoryQuota * factor + EPS) {
        return new Refusal(
            Refusals.INSUFFICIENT_MEMORY_QUOTA,
            Refusals.memory(a.name, min.memory(), total, a.memoryQuota * factor),
            List.of(memoryFigure(min.memory(), total, a.memoryQuota * factor)));
      }
    }
    for (Map.Entry<CardSet, Double> e : min.cards().entrySet()) {
      double requested = e.getValue();
      double total = requested + a.committed(e.getKey());
      double limit = a.quota(e.getKey()) * factor;
      if (requested > 0 && total > limit + EPS) {
        return new Refusal(
            Refusals.INSUFFICIENT_SCALAR_QUOTA,
            Refusals.cards(a.name, e.getKey().display(), requested, total, limit),
            List.of(cardFigure(e.getKey().display(), requested, total, limit)));
      }
    }
    return null;
  }

  /** CPU in milli-cores as a figure in cores: requested, what is held besides it, the limit. */
  private static Blocker.Figure cpuFigure(double requested, double total, double limit) {
    return new Blocker.Figure(
        "cpu", requested / 1000, (total - requested) / 1000, limit / 1000, CAPABILITY);
  }

  /** Memory in bytes as a figure. */
  private static Blocker.Figure memoryFigure(double requested, double total, double limit) {
    return new Blocker.Figure("memory", requested, total - requested, limit, CAPABILITY);
  }

  /** Cards of a model (or of models {@code A|B}) as a figure. */
  private static Blocker.Figure cardFigure(
      String card, double requested, double total, double limit) {
    return new Blocker.Figure(card, requested, total - requested, limit, CARD_QUOTA);
  }

  private static final String CAPABILITY = "capability";
  private static final String CARD_QUOTA = CapacityCardPlugin.CARD_QUOTA;

  /** JobEnqueuedFn: the admitted minimum, but what its placed pods cover, counts as inqueue. */
  void enqueued(JobInfo job) {
    QueueAccount account = ledger.account(job.queue());
    if (account == null) {
      return;
    }
    JobDemand min = ledger.enqueueDemand(job);
    min.cards().forEach(account::addInqueue);
    account.cpuInqueue += min.cpu();
    account.memoryInqueue += min.memory();
  }

  /**
   * AllocatableFn: an Open queue, a pod whose card annotation can be used, CPU and memory within
   * quota, and room for the pod's cards in at least one of its models (which model is the node's
   * business: see {@link #predicate}).
   */
  boolean allocatable(QueueInfo queue, TaskInfo task) {
    if (!queue.isOpen()) {
      return false;
    }
    Demand d = ledger.demand(task);
    QueueAccount a = d.queue();
    if (a == null) {
      return false;
    }
    if (d.warning() != null) {
      refusals.warn(Refusals.POD, task.key(), Refusals.INVALID_CARD_ANNOTATION, d.warning());
    }
    if (d.problem() != null) {
      refusals.warn(Refusals.POD, task.key(), Refusals.INVALID_CARD_ANNOTATION, d.problem());
      return false;
    }
    if (d.cpu() > 0 && a.cpuAllocated + d.cpu() > a.cpuQuota + EPS) {
      String message = Refusals.cpu(a.name, d.cpu(), a.cpuAllocated + d.cpu(), a.cpuQuota);
      refusals.warn(Refusals.POD, task.key(), Refusals.INSUFFICIENT_CPU_QUOTA, message);
      refuseTask(
          task,
          Refusals.INSUFFICIENT_CPU_QUOTA,
          message,
          cpuFigure(d.cpu(), a.cpuAllocated + d.cpu(), a.cpuQuota));
      return false;
    }
    if (d.memory() > 0 && a.memoryAllocated + d.memory() > a.memoryQuota + EPS) {
      String message =
          Refusals.memory(a.name, d.memory(), a.memoryAllocated + d.memory(), a.memoryQuota);
      refusals.warn(Refusals.POD, task.key(), Refusals.INSUFFICIENT_MEMORY_QUOTA, message);
      refuseTask(
          task,
          Refusals.INSUFFICIENT_MEMORY_QUOTA,
          message,
          memoryFigure(d.memory(), a.memoryAllocated + d.memory(), a.memoryQuota));
      return false;
    }
    if (d.cards() != null && !fitsSomeModel(a, d)) {
      String message =
          d.cards().isSingle()
              ? Refusals.cards(
                  a.name,
                  d.cards().display(),
                  d.count(),
                  a.allocated[d.cards().first()] + d.count(),
                  a.quota[d.cards().first()])
              : Refusals.cardsPerModel(a.name, d.cards(), d.count(), a);
      refusals.warn(Refusals.POD, task.key(), Refusals.INSUFFICIENT_SCALAR_QUOTA, message);
      refuseTask(
          task,
          Refusals.INSUFFICIENT_SCALAR_QUOTA,
          message,
          cardFigures(a, d).toArray(Blocker.Figure[]::new));
      return false;
    }
    return true;
  }

  /** Reports a pod's refusal as its job's blocker. */
  private void refuseTask(TaskInfo task, String reason, String message, Blocker.Figure... figures) {
    JobInfo job = refusals.session().job(task.jobId());
    if (job != null) {
      refusals
          .session()
          .reportBlocker(
              job, blocker(reason, "task " + task.name() + ": " + message, List.of(figures)));
    }
  }

  /** Per model of the pod's card set: the pod's cards, the queue's allocated and its quota. */
  private List<Blocker.Figure> cardFigures(QueueAccount a, Demand d) {
    List<Blocker.Figure> figures = new ArrayList<>();
    for (int c : d.cards().ordered()) {
      figures.add(
          new Blocker.Figure(
              ledger.catalog.name(c), d.count(), a.allocated[c], a.quota[c], CARD_QUOTA));
    }
    return figures;
  }

  /** A card quota refusal is {@link Blocker.Stage#CARD_QUOTA}, a CPU or memory one capability. */
  private static Blocker blocker(String reason, String message, List<Blocker.Figure> figures) {
    return Blocker.of(
        Refusals.INSUFFICIENT_SCALAR_QUOTA.equals(reason)
            ? Blocker.Stage.CARD_QUOTA
            : Blocker.Stage.QUEUE_CAPABILITY,
        message,
        figures);
  }

  /**
   * A card no node has: every node lacks it, counted as the nodes that would refuse the job's pods.
   */
  private Blocker unknownCardBlocker(String message) {
    return new Blocker(
        Blocker.Stage.QUEUE_CAPABILITY,
        "",
        "",
        message,
        List.of(),
        Map.of("the card is not on the node", refusals.session().nodes().size()));
  }

  private static boolean fitsSomeModel(QueueAccount a, Demand d) {
    for (int card : d.cards().ordered()) {
      if (d.count() <= a.remaining(card) + EPS) {
        return true;
      }
    }
    return false;
  }

  /**
   * PredicateFn: a pod that names cards only goes to a node of one of its models, and only while
   * the queue has room for that model; a pod that requests cards without naming them only while the
   * queue has room for the node's model. A full quota is Unschedulable (preempting within the queue
   * frees it); a node without the pod's model is Unresolvable.
   */
  /**
   * The {@link dev.caldera.api.extension.NodeLocality} key of {@link #predicate}: a task that asks
   * for no cards passes on every node (the same key for all such tasks); a task that does reads its
   * queue's remaining quota, which any allocation in the queue changes, so its answer is not
   * node-local (null).
   */
  Object localityKey(TaskInfo task) {
    Demand d = ledger.demand(task);
    return d.queue() == null || !d.usesCards() ? Boolean.TRUE : null;
  }

  Status predicate(TaskInfo task, NodeInfo node) {
    Demand d = ledger.demand(task);
    QueueAccount a = d.queue();
    if (a == null || !d.usesCards()) {
      return Status.OK;
    }
    if (d.problem() != null) {
      return d.refusal();
    }
    CardCatalog.NodeTable cards = ledger.catalog.node(node);
    if (d.cards() != null) {
      int card = cards.cardOf(d.resource());
      if (card < 0 || !d.cards().contains(card)) {
        return d.refusal();
      }
      if (d.count() > a.remaining(card) + EPS) {
        return quotaFull(a, card, d.count());
      }
    }
    int[] resources = d.unnamedResources();
    for (int i = 0; i < resources.length; i++) {
      int card = cards.cardOf(resources[i]);
      double count = d.unnamedCounts()[i];
      if (card >= 0 && count > a.remaining(card) + EPS) {
        return quotaFull(a, card, count);
      }
    }
    return Status.OK;
  }

  /**
   * The Unschedulable status of a full card quota. Node after node fails for the same reason, so
   * the status is kept per card until the figures change; a race only recomputes it.
   */
  private Status quotaFull(QueueAccount a, int card, double count) {
    QueueAccount.Full f = a.full[card];
    if (f != null && f.allocated() == a.allocated[card] && f.count() == count) {
      return f.status();
    }
    Status status =
        Status.unschedulable(
            Refusals.cards(
                a.name,
                ledger.catalog.name(card),
                count,
                a.allocated[card] + count,
                a.quota[card]));
    a.full[card] = new QueueAccount.Full(a.allocated[card], count, status);
    return status;
  }

  /**
   * PreemptiveFn: an Open queue where the tasks' requests + allocated stay within quota in every
   * requested dimension (a multi-model request against the sum of its models). A refusal for quota
   * is recorded on the pending pods it concerns, as allocation's are: reclaim would otherwise pass
   * them over in silence.
   */
  boolean preemptive(QueueInfo queue, List<TaskInfo> tasks) {
    QueueAccount a = ledger.account(queue.name());
    if (a == null || !queue.isOpen()) {
      return false;
    }
    double cpu = 0;
    double memory = 0;
    Map<CardSet, Double> cards = new LinkedHashMap<>();
    for (TaskInfo t : tasks) {
      if (t == null) {
        continue;
      }
      Demand d = ledger.demand(t);
      if (d.problem() != null) {
        return false;
      }
      cpu += d.cpu();
      memory += d.memory();
      if (d.cards() != null) {
        cards.merge(d.cards(), d.count(), Double::sum);
      }
    }
    Refusal refusal = null;
    if (cpu > 0 && a.cpuAllocated + cpu > a.cpuQuota + EPS) {
      refusal =
          new Refusal(
              Refusals.INSUFFICIENT_CPU_QUOTA,
              Refusals.cpu(a.name, cpu, a.cpuAllocated + cpu, a.cpuQuota),
              List.of(cpuFigure(cpu, a.cpuAllocated + cpu, a.cpuQuota)));
    } else if (memory > 0 && a.memoryAllocated + memory > a.memoryQuota + EPS) {
      refusal =
          new Refusal(
              Refusals.INSUFFICIENT_MEMORY_QUOTA,
              Refusals.memory(a.name, memory, a.memoryAllocated + memory, a.memoryQuota),
              List.of(memoryFigure(memory, a.memoryAllocated + memory, a.memoryQuota)));
    } else {
      for (Map.Entry<CardSet, Double> e : cards.entrySet()) {
        double total = a.allocated(e.getKey()) + e.getValue();
        if (total > a.quota(e.getKey()) + EPS) {
          refusal =
              new Refusal(
                  Refusals.INSUFFICIENT_SCALAR_QUOTA,
                  Refusals.cards(
                      a.name, e.getKey().display(), e.getValue(), total, a.quota(e.getKey())),
                  List.of(
                      cardFigure(e.getKey().display(), e.getValue(), total, a.quota(e.getKey()))));
          break;
        }
      }
    }
    if (refusal == null) {
      return true;
    }
    for (TaskInfo t : tasks) {
      if (t != null && t.status() == TaskStatus.PENDING) {
        refusals.warn(Refusals.POD, t.key(), refusal.reason(), refusal.message());
      }
    }
    return false;
  }

  /** Pending pods of the job whose card annotation is wrong get an event saying so. */
  private void reportPodProblems(JobInfo job) {
    for (TaskInfo t : job.tasks()) {
      if (t.status() != TaskStatus.PENDING) {
        continue;
      }
      Demand d = ledger.demand(t);
      String text = d.problem() != null ? d.problem() : d.warning();
      if (text != null) {
        refusals.warn(Refusals.POD, t.key(), Refusals.INVALID_CARD_ANNOTATION, text);
      }
    }
  }
}
