package dev.caldera.plugins.capacitycard;

import dev.caldera.api.Session;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import java.util.List;
import java.util.Map;

/**
 * A pod group whose minimum asks more cards of a model (or of each model of {@code A|B}) than its
 * queue's card quota or the cluster's inventory: it can never fit as things stand, so enqueue
 * refuses it, its blocker is {@link Blocker.Stage#INADMISSIBLE} (listed after the pod groups that
 * can fit) and one {@code Inadmissible} warning says why, not again while the reason stays.
 */
record Inadmissible(String message, List<Blocker.Figure> figures) {

  /** The event's reason and the pod group condition's type. */
  static final String REASON = "Inadmissible";

  /** The first card set of {@code min} that can never fit, or null. */
  static Inadmissible of(
      JobInfo job, QueueAccount account, JobDemand min, CardLedger ledger, double factor) {
    for (Map.Entry<CardSet, Double> e : min.cards().entrySet()) {
      double requested = e.getValue();
      double quota = account.quota(e.getKey()) * factor;
      double inventory = 0;
      for (int card : e.getKey().ordered()) {
        inventory += ledger.catalog.inventory(card);
      }
      boolean overQuota = requested > quota + QuotaChecks.EPS;
      boolean overInventory = requested > inventory + QuotaChecks.EPS;
      if (!overQuota && !overInventory) {
        continue;
      }
      String card = e.getKey().display();
      StringBuilder m =
          new StringBuilder("pod group ")
              .append(job.namespace())
              .append('/')
              .append(job.name())
              .append(" can never fit: it asks ")
              .append(Units.cards(requested))
              .append(" <")
              .append(card)
              .append(">, more than");
      if (overQuota) {
        m.append(" queue <")
            .append(account.name)
            .append(">'s card quota of ")
            .append(Units.cards(quota));
      }
      if (overInventory) {
        m.append(overQuota ? " and" : "")
            .append(" the cluster's ")
            .append(Units.cards(inventory))
            .append(inventory == 1 ? " card" : " cards");
      }
      Blocker.Figure figure =
          overQuota
              ? new Blocker.Figure(card, requested, 0, quota, CapacityCardPlugin.CARD_QUOTA)
              : new Blocker.Figure(card, requested, 0, inventory, "inventory");
      return new Inadmissible(m.toString(), List.of(figure));
    }
    return null;
  }

  /**
   * The event, unless this reason was already reported for the pod group ({@code reports}: the
   * factory's memory, which outlives sessions). No pod group condition is written: a status change
   * on every such pod group made the demo's sessions write and schedule differently.
   */
  void report(Session session, JobInfo job, QueueReports reports) {
    if (reports.changed(REASON + "\u0000" + job.uid(), List.of(message))) {
      session.recordEvent("PodGroup", job.uid(), "Warning", REASON, message);
    }
  }
}
