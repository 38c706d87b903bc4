package dev.caldera.plugins.capacitycard;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;

/**
 * NodeOrderFn for multi-model pods: the order of {@code A|B|…} is the pod's preference, so a node
 * of the first model scores {@code weight × 100}, the last 0, and those between in equal steps.
 * Pods that name one model (or none) score 0 everywhere.
 */
final class CardPreference {

  /** The top score of one node-order plugin, as Kubernetes' {@code MaxNodeScore}. */
  static final double MAX_SCORE = 100;

  private final CardLedger ledger;
  private final double weight;

  CardPreference(CardLedger ledger, double weight) {
    this.ledger = ledger;
    this.weight = weight;
  }

  double score(TaskInfo task, NodeInfo node) {
    Demand d = ledger.demand(task);
    if (!d.multiModel()) {
      return 0;
    }
    int position = d.cards().position(ledger.catalog.node(node).cardOf(d.resource()));
    if (position < 0) {
      return 0;
    }
    int last = d.cards().size() - 1;
    return weight * MAX_SCORE * (last - position) / last;
  }
}
