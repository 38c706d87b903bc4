package dev.caldera.framework.internal.loop;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.CardUse;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueInsight.CardModel;
import dev.caldera.framework.loop.QueueInsight.NeverFits;
import dev.caldera.framework.loop.QueueInsight.QueueCards;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A session's cards over the cluster: per card name the nodes' inventory and what pods hold (from
 * the nodes' card reports), per queue what it holds against its card quota (from the queues' quota
 * reports), and the waiting pod groups that ask more of a model than their queue's quota or the
 * inventory.
 */
final class CardTotals {

  private static final String CARD_QUOTA = "card quota";

  private static final class Model {
    String kind = "whole";
    double inventory;
    double allocated;
    int nodes;
    final Map<String, double[]> queues = new TreeMap<>(); // queue → {allocated, quota}
  }

  private final Map<String, Model> models = new TreeMap<>();

  private CardTotals() {}

  static CardTotals of(SessionResult result) {
    CardTotals t = new CardTotals();
    for (List<CardUse> cards : result.nodeCards().values()) {
      for (CardUse c : cards) {
        Model m = t.models.computeIfAbsent(c.card(), k -> new Model());
        m.kind = c.kind();
        m.inventory += c.capacity();
        m.allocated += c.allocated();
        if (c.capacity() > 0) {
          m.nodes++;
        }
      }
    }
    result
        .queueQuotas()
        .forEach(
            (queue, figures) -> {
              for (Blocker.Figure f : figures) {
                if (!CARD_QUOTA.equals(f.limitName())) {
                  continue;
                }
                Model m = t.models.computeIfAbsent(f.resource(), k -> new Model());
                m.queues.put(queue, new double[] {f.allocated(), f.limit()});
              }
            });
    return t;
  }

  List<CardModel> models() {
    List<CardModel> out = new ArrayList<>();
    models.forEach(
        (card, m) -> {
          List<QueueCards> queues = new ArrayList<>();
          m.queues.forEach(
              (q, v) ->
                  queues.add(new QueueCards(q, v[0], v[1] > 0 ? v[1] : -1, v[1] > m.inventory)));
          out.add(
              new CardModel(
                  card,
                  m.kind,
                  m.inventory,
                  m.allocated,
                  Math.max(0, m.inventory - m.allocated),
                  m.nodes,
                  queues));
        });
    return out;
  }

  /**
   * The waiting pod groups whose blocker shows a request for a card above the queue's card quota or
   * above the inventory of that card.
   */
  List<NeverFits> neverFits(List<SessionResult.Waiting> waiting) {
    List<NeverFits> out = new ArrayList<>();
    for (SessionResult.Waiting w : waiting) {
      for (Blocker.Figure f : w.blocker().figures()) {
        Model m = models.get(f.resource());
        if (m == null) {
          continue;
        }
        if (CARD_QUOTA.equals(f.limitName()) && f.requested() > f.limit()) {
          out.add(
              new NeverFits(
                  w.podGroup(),
                  w.queue(),
                  f.resource(),
                  f.requested(),
                  f.limit(),
                  CARD_QUOTA,
                  w.podGroup()
                      + " asks "
                      + Blocker.Figure.format(f.requested())
                      + " "
                      + f.resource()
                      + ", more than queue "
                      + w.queue()
                      + "'s card quota of "
                      + Blocker.Figure.format(f.limit())));
        } else if (f.requested() > m.inventory) {
          out.add(
              new NeverFits(
                  w.podGroup(),
                  w.queue(),
                  f.resource(),
                  f.requested(),
                  m.inventory,
                  "inventory",
                  w.podGroup()
                      + " asks "
                      + Blocker.Figure.format(f.requested())
                      + " "
                      + f.resource()
                      + ", more than the cluster's "
                      + Blocker.Figure.format(m.inventory)));
        }
      }
    }
    return out;
  }
}
