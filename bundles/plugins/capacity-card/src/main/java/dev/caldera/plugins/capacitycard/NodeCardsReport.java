package dev.caldera.plugins.capacitycard;

import dev.caldera.api.Session;
import dev.caldera.api.info.CardUse;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reports how each node's cards are used at session close ({@link Session#reportNodeCards}): per
 * card kind the node's allocatable, and the cards its placed pods are charged, per queue. The
 * charges are the ones the queues' card figures add up, so a model's cards over all nodes and per
 * queue equal what {@code /api/queues} shows.
 */
final class NodeCardsReport {

  private NodeCardsReport() {}

  private static final class Use {
    final int card;
    double capacity;
    double allocated;
    final Map<String, Double> queues = new TreeMap<>();

    Use(int card) {
      this.card = card;
    }
  }

  static void report(Session session, CardLedger ledger) {
    for (NodeInfo node : session.nodes()) {
      CardCatalog.NodeTable table = ledger.catalog.node(node);
      Map<Integer, Use> uses = new LinkedHashMap<>();
      for (int i = 0; i < table.cards().length; i++) {
        Use u = uses.computeIfAbsent(table.cards()[i], Use::new);
        // Scalar resources are kept in milli-units, as Volcano keeps them.
        u.capacity += node.allocatable().get(table.resources()[i]) / 1000.0;
      }
      for (TaskInfo t : node.tasks()) {
        CardLedger.Charge c = ledger.charge(t);
        if (c == null) {
          continue;
        }
        JobInfo job = session.job(t.jobId());
        String queue = job == null ? "" : job.queue();
        for (int i = 0; i < c.cards().length; i++) {
          Use u = uses.computeIfAbsent(c.cards()[i], Use::new);
          u.allocated += c.counts()[i];
          u.queues.merge(queue, c.counts()[i], Double::sum);
        }
      }
      if (uses.isEmpty()) {
        continue;
      }
      List<CardUse> cards = new ArrayList<>();
      for (Use u : uses.values()) {
        String name = ledger.catalog.name(u.card);
        int resource = ledger.catalog.resource(u.card);
        cards.add(
            new CardUse(
                name,
                resource < 0 ? "" : ResourceNames.nameOf(resource),
                kind(name),
                u.capacity,
                u.allocated,
                u.queues));
      }
      session.reportNodeCards(node, cards);
    }
  }

  /** {@code mig} or {@code mps} for a slice's name (CardDiscovery's naming), else {@code whole}. */
  static String kind(String card) {
    int slash = card.lastIndexOf('/');
    String tail = slash < 0 ? "" : card.substring(slash + 1);
    if (tail.startsWith("mig-")) {
      return "mig";
    }
    if (card.contains("/mps-")) {
      return "mps";
    }
    return "whole";
  }
}
