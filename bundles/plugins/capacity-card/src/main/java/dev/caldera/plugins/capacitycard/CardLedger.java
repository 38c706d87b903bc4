package dev.caldera.plugins.capacitycard;

import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The session's card accounting: the catalog of cards, every queue's account, every task's demand
 * and every job's minimum, built when the session opens; then what each placed task is charged,
 * kept up to date by the allocate and deallocate events.
 *
 * <p>A placed task is charged the model of the node it is on: a pod naming {@code A|B} on a node of
 * model B is charged B. A pod naming a card that its node does not have (placed before this plugin
 * ran) is charged its first named card.
 *
 * <p>Built single-threaded; afterwards the demand lookups and account reads may run concurrently
 * (predicates and node scores), while changes come from the event handler, which does not run
 * concurrently with them.
 */
final class CardLedger {

  /**
   * What one placed task counts against its queue.
   *
   * @param cards card ids
   * @param counts cards of each
   */
  record Charge(int[] cards, double[] counts, double cpu, double memory) {}

  private static final Charge NONE = new Charge(new int[0], new double[0], 0, 0);

  final CardCatalog catalog;
  final CardArguments arguments;
  private final Session session;
  private final Map<String, QueueAccount> accounts = new TreeMap<>();
  private final Map<String, Demand> demands = new HashMap<>();
  private final Map<String, JobDemand> jobDemands = new HashMap<>();
  private final Map<String, JobDemand> uncoveredDemands = new HashMap<>();
  private final Map<String, List<String>> requestProblems = new HashMap<>();
  private final Map<String, Charge> charges = new ConcurrentHashMap<>();
  private volatile Last last;

  private record Last(TaskInfo task, Demand demand) {}

  private CardLedger(Session session, CardArguments arguments) {
    this.session = session;
    this.arguments = arguments;
    this.catalog = new CardCatalog(session.nodes());
  }

  /** Builds the accounting of {@code session}. */
  static CardLedger open(Session session, CardArguments arguments) {
    CardLedger ledger = new CardLedger(session, arguments);
    ledger.build();
    return ledger;
  }

  private void build() {
    Map<String, CardAnnotations.Counts> quotas = new TreeMap<>();
    for (QueueInfo q : session.queues()) {
      CardAnnotations.Counts counts =
          CardAnnotations.quota(q.queue().metadata().annotations().get(CardAnnotations.QUOTA));
      counts.counts().keySet().forEach(catalog::idOrAdd);
      quotas.put(q.name(), counts);
    }
    Map<String, CardAnnotations.Counts> requests = new HashMap<>();
    for (JobInfo job : session.jobs()) {
      String text = job.podGroup().metadata().annotations().get(CardAnnotations.REQUEST);
      if (text != null) {
        CardAnnotations.Counts counts = CardAnnotations.request(text);
        counts.counts().keySet().forEach(k -> JobDemand.setOf(k, catalog));
        requests.put(job.uid(), counts);
        if (!counts.problems().isEmpty()) {
          requestProblems.put(job.uid(), counts.problems());
        }
      }
    }
    int cards = catalog.size();
    for (QueueInfo q : session.queues()) {
      CardAnnotations.Counts counts = quotas.get(q.name());
      double[] quota = new double[cards];
      counts.counts().forEach((name, n) -> quota[catalog.id(name)] = n);
      accounts.put(q.name(), new QueueAccount(q, quota, counts.problems()));
    }
    CardAnnotations.Counts none = new CardAnnotations.Counts(Map.of(), List.of());
    for (JobInfo job : session.jobs()) {
      QueueAccount account = accounts.get(job.queue());
      for (TaskInfo t : job.tasks()) {
        demands.put(t.uid(), Demand.of(t, account, catalog, arguments.cardUnlimitedCpuMemory()));
      }
      JobDemand min =
          JobDemand.of(
              job,
              requests.getOrDefault(job.uid(), none),
              this::demand,
              catalog,
              arguments.cardUnlimitedCpuMemory());
      jobDemands.put(job.uid(), min);
      if (account != null) {
        addUsage(job, min, account);
      }
    }
  }

  /**
   * What a job adds to its queue when the session opens: its placed tasks as allocated; the part of
   * its minimum they do not cover as inqueue when it is Inqueue, or Running with minMember placed;
   * the placed part beyond its minimum as elastic.
   */
  private void addUsage(JobInfo job, JobDemand min, QueueAccount account) {
    double[] placed = new double[catalog.size()];
    double cpu = 0;
    double memory = 0;
    int placedTasks = 0;
    for (TaskInfo t : job.tasks()) {
      if (!t.status().isAllocated()) {
        continue;
      }
      placedTasks++;
      Charge c = chargeOf(t, demand(t), t.nodeName());
      charges.put(t.uid(), c);
      apply(account, c, 1);
      for (int i = 0; i < c.cards().length; i++) {
        placed[c.cards()[i]] += c.counts()[i];
      }
      cpu += c.cpu();
      memory += c.memory();
    }
    boolean reserves =
        job.phase() == PodGroupPhase.Inqueue
            || (job.phase() == PodGroupPhase.Running
                && job.minResources() != null
                && placedTasks >= job.minAvailable());
    Map<CardSet, Double> uncoveredCards = new LinkedHashMap<>();
    for (Map.Entry<CardSet, Double> e : min.cards().entrySet()) {
      double uncovered = e.getValue();
      for (int card : e.getKey().ordered()) {
        double take = Math.min(placed[card], uncovered);
        placed[card] -= take;
        uncovered -= take;
      }
      if (uncovered > 0) {
        uncoveredCards.put(e.getKey(), uncovered);
      }
      if (reserves && uncovered > 0) {
        account.addInqueue(e.getKey(), uncovered);
      }
    }
    for (int card = 0; card < placed.length; card++) {
      account.elastic[card] += placed[card];
    }
    if (reserves) {
      account.cpuInqueue += Math.max(0, min.cpu() - cpu);
      account.memoryInqueue += Math.max(0, min.memory() - memory);
    }
    account.cpuElastic += Math.max(0, cpu - min.cpu());
    account.memoryElastic += Math.max(0, memory - min.memory());
    if (placedTasks > 0) {
      uncoveredDemands.put(
          job.uid(),
          new JobDemand(
              uncoveredCards, Math.max(0, min.cpu() - cpu), Math.max(0, min.memory() - memory)));
    }
  }

  /** The account of {@code queue}, or null. */
  QueueAccount account(String queue) {
    return accounts.get(queue);
  }

  /** Every account, by queue name. */
  Iterable<QueueAccount> accounts() {
    return accounts.values();
  }

  /** The demand of {@code task} (read now if the task was not in the session when it opened). */
  Demand demand(TaskInfo task) {
    // Predicates and scores ask about one task for node after node: remember the last answer.
    Last l = last;
    if (l != null && l.task() == task) {
      return l.demand();
    }
    Demand d = demands.get(task.uid());
    if (d == null) {
      JobInfo job = session.job(task.jobId());
      QueueAccount account = job == null ? null : accounts.get(job.queue());
      d = Demand.of(task, account, catalog, arguments.cardUnlimitedCpuMemory());
    }
    last = new Last(task, d);
    return d;
  }

  /**
   * The part of the job's minimum its placed tasks do not cover yet: what admitting it adds to its
   * queue. A pod group made for a pod that already runs (a Deployment's replica) adds nothing, as
   * its pod is in the queue's allocated already.
   */
  JobDemand enqueueDemand(JobInfo job) {
    JobDemand d = uncoveredDemands.get(job.uid());
    return d != null ? d : jobDemand(job);
  }

  /**
   * Why the job cannot be admitted whatever the quota: its pod group's {@value
   * CardAnnotations#NAME} (or, without one, a pending pod's) names only cards no node has. Null
   * when it can.
   */
  String unknownCards(JobInfo job) {
    String annotation = job.podGroup().metadata().annotations().get(CardAnnotations.NAME);
    if (annotation != null) {
      return unknownCardsIn(annotation, "pod group");
    }
    for (TaskInfo t : job.tasks()) {
      String own = t.pod().metadata().annotations().get(CardAnnotations.NAME);
      if (t.status() == TaskStatus.PENDING && own != null) {
        String problem = unknownCardsIn(own, "pod " + t.name());
        if (problem != null) {
          return problem;
        }
      }
    }
    return null;
  }

  private String unknownCardsIn(String annotation, String where) {
    CardAnnotations.Names names = CardAnnotations.names(annotation);
    if (names.problem() != null || names.names().isEmpty()) {
      return null;
    }
    for (String n : names.names()) {
      int id = catalog.id(n);
      if (id >= 0 && catalog.resource(id) >= 0) {
        return null;
      }
    }
    return CardAnnotations.NAME
        + " of the "
        + where
        + ": no node has "
        + (names.names().size() == 1 ? "card " : "cards ")
        + String.join(", ", names.names())
        + " (known cards: "
        + String.join(", ", catalog.nodeCardNames())
        + "); the job waits in Pending until a node has it";
  }

  /** The minimum of {@code job} as the enqueue check counts it. */
  JobDemand jobDemand(JobInfo job) {
    JobDemand d = jobDemands.get(job.uid());
    return d != null
        ? d
        : JobDemand.of(
            job,
            new CardAnnotations.Counts(Map.of(), List.of()),
            this::demand,
            catalog,
            arguments.cardUnlimitedCpuMemory());
  }

  /** What is wrong with the job's {@value CardAnnotations#REQUEST}, if anything. */
  List<String> requestProblems(JobInfo job) {
    return requestProblems.getOrDefault(job.uid(), List.of());
  }

  /** Whether some task of the session names more than one model. */
  boolean anyMultiModel() {
    for (Demand d : demands.values()) {
      if (d.multiModel()) {
        return true;
      }
    }
    return false;
  }

  /** What a placed task is charged now, or null when it is not placed (or holds no card). */
  Charge charge(TaskInfo task) {
    return charges.get(task.uid());
  }

  /** The task now counts as placed on its node. */
  void allocated(TaskInfo task) {
    Demand d = demand(task);
    if (d.queue() == null) {
      return;
    }
    Charge c = chargeOf(task, d, task.nodeName());
    Charge old = charges.put(task.uid(), c);
    if (old != null) {
      apply(d.queue(), old, -1);
    }
    apply(d.queue(), c, 1);
  }

  /** The task no longer counts as placed. */
  void deallocated(TaskInfo task) {
    Demand d = demand(task);
    Charge c = charges.remove(task.uid());
    if (d.queue() != null && c != null) {
      apply(d.queue(), c, -1);
    }
  }

  /** What {@code task} counts against its queue when placed on {@code nodeName}. */
  Charge chargeOf(TaskInfo task, Demand d, String nodeName) {
    CardCatalog.NodeTable node = catalog.node(nodeName);
    int named = d.cards() == null ? 0 : 1;
    int[] cards = new int[named + d.unnamedResources().length];
    double[] counts = new double[cards.length];
    int n = 0;
    if (named == 1) {
      int card = node.cardOf(d.resource());
      cards[n] = card >= 0 && d.cards().contains(card) ? card : d.cards().first();
      counts[n++] = d.count();
    }
    for (int i = 0; i < d.unnamedResources().length; i++) {
      int card = node.cardOf(d.unnamedResources()[i]);
      if (card >= 0) {
        cards[n] = card;
        counts[n++] = d.unnamedCounts()[i];
      }
    }
    if (n == 0 && d.cpu() == 0 && d.memory() == 0) {
      return NONE;
    }
    if (n < cards.length) {
      cards = Arrays.copyOf(cards, n);
      counts = Arrays.copyOf(counts, n);
    }
    return new Charge(cards, counts, d.cpu(), d.memory());
  }

  private static void apply(QueueAccount account, Charge c, int sign) {
    for (int i = 0; i < c.cards().length; i++) {
      account.allocated[c.cards()[i]] += sign * c.counts()[i];
    }
    account.cpuAllocated += sign * c.cpu();
    account.memoryAllocated += sign * c.memory();
  }
}
