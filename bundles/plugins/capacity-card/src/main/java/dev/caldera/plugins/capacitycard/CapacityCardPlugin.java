package dev.caldera.plugins.capacitycard;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyLibrary;
import dev.caldera.dsl.SessionPolicyContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Queue quota per card model ({@code capacity-card}). Cards are found on nodes by label pattern
 * (whole cards, MPS and MIG slices, any vendor); a queue's {@value CardAnnotations#QUOTA} says how
 * many of each it may use, and its {@code spec.capability} how much CPU and memory (none when not
 * given). Pods name their card in {@value CardAnnotations#NAME}, possibly as alternatives {@code
 * A|B} charged to the model of the node they land on; jobs may state their cards in {@value
 * CardAnnotations#REQUEST} for enqueue before their pods exist.
 *
 * <p>Registers JobEnqueueable/JobEnqueued (admission within quota × {@code overCommitFactor}),
 * Allocatable and Predicate (allocation within quota, per node model), Preemptive, NodeOrder
 * (multi-model preference), an event handler (the accounting) and a ReclaimableFn: the policy named
 * by {@code reclaimPolicy}, else always the tidal policy (service type from the pod group's {@code
 * volcano.sh/service.type}, with {@code podOwnerReferenceToServiceType} as a fallback by owner
 * kind).
 */
public final class CapacityCardPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "capacity-card";

  /** The event object kind for reclaim policies. */
  static final String POLICY_KIND = "Policy";

  private final CardArguments arguments;
  private final QueueReports reports;
  private final ReclaimPolicies policies;
  private final Policy tidal;
  private CardLedger ledger;
  private ReclaimPolicies.Lookup reclaimPolicy;

  /** A plugin with its own memories (tests). */
  CapacityCardPlugin(CardArguments arguments) {
    this(arguments, new QueueReports(), new ReclaimPolicies(PolicyLibrary.create()));
  }

  /**
   * A plugin sharing the factory's memories.
   *
   * @throws dev.caldera.api.PluginArgumentException when the owner-kind map does not make a valid
   *     tidal policy
   */
  CapacityCardPlugin(CardArguments arguments, QueueReports reports, ReclaimPolicies policies) {
    this.arguments = arguments;
    this.reports = reports;
    this.policies = policies;
    this.tidal =
        arguments.reclaimPolicy() != null
            ? null
            : policies.tidal(
                arguments.ownerKindServiceTypes() == null
                    ? Map.of()
                    : arguments.ownerKindServiceTypes());
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The arguments this instance was made with. */
  CardArguments arguments() {
    return arguments;
  }

  /** The session's accounting (tests). */
  CardLedger ledger() {
    return ledger;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    ledger = CardLedger.open(session, arguments);
    Refusals refusals = new Refusals(session);
    for (QueueAccount account : ledger.accounts()) {
      if (reports.changed(account.name, account.problems)) {
        for (String problem : account.problems) {
          refusals.warn(Refusals.QUEUE, account.name, Refusals.INVALID_CARD_ANNOTATION, problem);
        }
      }
    }
    QuotaChecks checks = new QuotaChecks(ledger, refusals, reports);
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, checks::enqueueable);
    extensions.add(ExtensionPoint.JOB_ENQUEUED, checks::enqueued);
    extensions.add(ExtensionPoint.ALLOCATABLE, checks::allocatable);
    extensions.add(ExtensionPoint.PREDICATE, checks::predicate, checks::localityKey);
    extensions.add(ExtensionPoint.PREEMPTIVE, checks::preemptive);
    // A higher-priority queue is served (and reclaims) first; a lower-priority one is reclaimed
    // first. Equal priorities leave the order to the next plugin, as capacity's priority step does.
    extensions.add(
        ExtensionPoint.QUEUE_ORDER, (l, r) -> Integer.compare(r.priority(), l.priority()));
    extensions.add(
        ExtensionPoint.VICTIM_QUEUE_ORDER,
        (l, r, evictor) -> Integer.compare(l.priority(), r.priority()));
    if (arguments.preferenceWeight() > 0 && ledger.anyMultiModel()) {
      extensions.add(
          ExtensionPoint.NODE_ORDER,
          new CardPreference(ledger, arguments.preferenceWeight())::score,
          task -> ledger.demand(task).multiModel() ? null : Boolean.TRUE);
    }
    CardLedger accounts = ledger;
    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            accounts.allocated(task);
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            accounts.deallocated(task);
          }
        });
    addReclaimPolicy(session, extensions);
  }

  /**
   * Reports each queue's cards per model, allocated against its quota, for operators ({@code
   * /api/queues}, the console): the models with a quota or with cards allocated, by name.
   */
  @Override
  public void onSessionClose(Session session) {
    if (ledger == null) {
      return;
    }
    for (QueueAccount account : ledger.accounts()) {
      warnQuotaAboveInventory(session, account);
      List<Blocker.Figure> figures = new ArrayList<>();
      for (int c = 0; c < account.quota.length; c++) {
        if (account.quota[c] > 0 || account.allocated[c] > 0) {
          figures.add(
              new Blocker.Figure(
                  ledger.catalog.name(c), 0, account.allocated[c], account.quota[c], CARD_QUOTA));
        }
      }
      if (!figures.isEmpty()) {
        figures.sort(Comparator.comparing(Blocker.Figure::resource));
        session.reportQueueQuota(account.queue, figures);
      }
    }
    warnGuaranteeAboveInventory(session);
    NodeCardsReport.report(session, ledger);
  }

  /** The reason of the warning about a queue guarantee the cluster's cards cannot meet. */
  static final String GUARANTEE_ABOVE_INVENTORY = "GuaranteeAboveInventory";

  /**
   * A queue's {@code spec.guarantee.resource} on a resource that counts cards ({@code
   * nvidia.com/gpu}, a MIG resource) that is more than the cards of it on all nodes (every model
   * that resource counts) is a warning on the queue: the guarantee can never be met.
   */
  private void warnGuaranteeAboveInventory(Session session) {
    CardCatalog catalog = ledger.catalog;
    Map<String, Double> inventory = new java.util.TreeMap<>();
    Map<String, List<String>> models = new java.util.TreeMap<>();
    for (int c = 0; c < catalog.size(); c++) {
      int r = catalog.resource(c);
      if (r >= 0) {
        String resource = dev.caldera.api.resource.ResourceNames.nameOf(r);
        inventory.merge(resource, catalog.inventory(c), Double::sum);
        models
            .computeIfAbsent(resource, k -> new ArrayList<>())
            .add("<" + catalog.name(c) + "> " + Units.cards(catalog.inventory(c)));
      }
    }
    for (dev.caldera.api.info.QueueInfo q : session.queues()) {
      Map<String, dev.caldera.api.resource.Quantity> guarantee = q.queue().guarantee();
      if (guarantee == null) {
        continue;
      }
      for (Map.Entry<String, Double> e : inventory.entrySet()) {
        dev.caldera.api.resource.Quantity g = guarantee.get(e.getKey());
        if (g == null || g.amount().doubleValue() <= e.getValue() + QuotaChecks.EPS) {
          continue;
        }
        session.recordEvent(
            "Queue",
            q.name(),
            "Warning",
            GUARANTEE_ABOVE_INVENTORY,
            "queue <"
                + q.name()
                + ">'s guarantee of "
                + Units.cards(g.amount().doubleValue())
                + " "
                + e.getKey()
                + " is more than the cluster's "
                + Units.cards(e.getValue())
                + " ("
                + String.join(", ", models.get(e.getKey()))
                + "): it can never be met");
      }
    }
  }

  /** The reason of the warning about a card quota the cluster's cards cannot meet. */
  static final String QUOTA_ABOVE_INVENTORY = "QuotaAboveInventory";

  /** A card quota more than the cluster's inventory of the card is a warning on the queue. */
  private void warnQuotaAboveInventory(Session session, QueueAccount account) {
    for (int c = 0; c < account.quota.length; c++) {
      double inventory = ledger.catalog.inventory(c);
      if (account.quota[c] > inventory + QuotaChecks.EPS) {
        session.recordEvent(
            "Queue",
            account.name,
            "Warning",
            QUOTA_ABOVE_INVENTORY,
            "queue <"
                + account.name
                + ">'s card quota of "
                + Units.cards(account.quota[c])
                + " <"
                + ledger.catalog.name(c)
                + "> is more than the cluster's "
                + Units.cards(inventory)
                + ": it can never be met");
      }
    }
  }

  /** The limit name of the queues' card figures. */
  static final String CARD_QUOTA = "card quota";

  /**
   * A {@code reclaimPolicy} that no valid file declares holds scheduling, as a missing plugin does:
   * otherwise reclaim would run without the rules the operator chose.
   */
  @Override
  public List<String> unmetRequirements(ClusterInfo cluster) {
    ReclaimPolicies.Lookup lookup = reclaimPolicy(cluster);
    return lookup == null || lookup.policy() != null ? List.of() : lookup.problems();
  }

  /** The configured reclaim policy as of this session's sources, looked up once per session. */
  private ReclaimPolicies.Lookup reclaimPolicy(ClusterInfo cluster) {
    if (reclaimPolicy == null && arguments.reclaimPolicy() != null) {
      reclaimPolicy = policies.named(arguments.reclaimPolicy(), cluster.policies());
    }
    return reclaimPolicy;
  }

  /**
   * The ReclaimableFn of the configured policy; errors in its file are reported in a Warning event
   * on {@code Policy/<name>} while the last good version runs.
   */
  private void addReclaimPolicy(Session session, Extensions extensions) {
    Policy policy = tidal;
    if (arguments.reclaimPolicy() != null) {
      ReclaimPolicies.Lookup lookup = reclaimPolicy(session.cluster());
      for (String problem : lookup.problems()) {
        session.recordEvent(
            POLICY_KIND,
            arguments.reclaimPolicy(),
            "Warning",
            lookup.policy() == null ? "PolicyMissing" : "PolicyError",
            problem);
      }
      policy = lookup.policy();
      if (policy == null) {
        extensions.add(ExtensionPoint.RECLAIMABLE, (reclaimer, candidates) -> Victims.reject());
        return;
      }
    }
    if (policy == null) {
      return;
    }
    if (!policy.hasReclaim()) {
      session.recordEvent(
          POLICY_KIND,
          policy.name(),
          "Warning",
          "PolicyWithoutReclaim",
          "policy " + policy.name() + " (" + policy.fileName() + ") has no reclaim block");
      extensions.add(ExtensionPoint.RECLAIMABLE, (reclaimer, candidates) -> Victims.reject());
      return;
    }
    SessionPolicyContext context = new SessionPolicyContext(session);
    extensions.add(ExtensionPoint.RECLAIMABLE, policy.reclaimable(context));
    if (policy.usesQueueAllocation()) {
      extensions.add(ExtensionPoint.EVENT_HANDLER, context.eventHandler());
    }
  }
}
