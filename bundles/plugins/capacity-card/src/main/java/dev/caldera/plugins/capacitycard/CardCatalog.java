package dev.caldera.plugins.capacitycard;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.resource.ResourceNames;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The card names of a session as dense ids, and the cards of every node. Ids are given first to the
 * cards found on nodes (in node order), then to names that only quotas or job requests mention
 * (those have no resource: no node has them). A card name keeps the resource of the first node that
 * has it.
 */
final class CardCatalog {

  /** A node's cards as parallel arrays: resource index → card id. */
  record NodeTable(String model, int[] resources, int[] cards) {
    static final NodeTable NONE = new NodeTable("", new int[0], new int[0]);

    /** The id of the node's card counted by resource {@code resourceIndex}, or -1. */
    int cardOf(int resourceIndex) {
      for (int i = 0; i < resources.length; i++) {
        if (resources[i] == resourceIndex) {
          return cards[i];
        }
      }
      return -1;
    }
  }

  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> names = new ArrayList<>();
  private final List<Integer> resourceOf = new ArrayList<>();
  private final boolean[] cardResource;
  private final NodeTable[] byIndex;
  private final Map<String, NodeTable> byName = new HashMap<>();
  private final Map<Integer, Double> inventory = new HashMap<>();

  /** Discovers the cards of {@code nodes} (in session order). */
  CardCatalog(List<NodeInfo> nodes) {
    byIndex = new NodeTable[nodes.size()];
    List<Integer> resources = new ArrayList<>();
    for (int n = 0; n < nodes.size(); n++) {
      NodeInfo node = nodes.get(n);
      CardDiscovery.NodeCards found = CardDiscovery.discover(node.node());
      NodeTable table = NodeTable.NONE;
      if (!found.cards().isEmpty()) {
        int[] res = new int[found.cards().size()];
        int[] card = new int[res.length];
        for (int i = 0; i < res.length; i++) {
          CardDiscovery.Card c = found.cards().get(i);
          res[i] = ResourceNames.indexOf(c.resource());
          card[i] = define(c.name(), res[i]);
          resources.add(res[i]);
          inventory.merge(card[i], (double) c.count(), Double::sum);
        }
        table = new NodeTable(found.model(), res, card);
      }
      byIndex[n] = table;
      byName.put(node.name(), table);
    }
    int width = 0;
    for (int r : resources) {
      width = Math.max(width, r + 1);
    }
    cardResource = new boolean[width];
    for (int r : resources) {
      cardResource[r] = true;
    }
  }

  private int define(String name, int resource) {
    Integer id = ids.get(name);
    if (id != null) {
      return id;
    }
    ids.put(name, names.size());
    names.add(name);
    resourceOf.add(resource);
    return names.size() - 1;
  }

  /** The id of {@code name}, adding a card that no node has (no resource) if it is new. */
  int idOrAdd(String name) {
    return define(name, -1);
  }

  /** The id of {@code name}, or -1. */
  int id(String name) {
    Integer id = ids.get(name);
    return id == null ? -1 : id;
  }

  /** How many card names are known. */
  int size() {
    return names.size();
  }

  /** The name of card {@code id}. */
  String name(int id) {
    return names.get(id);
  }

  /** How many cards {@code id} the nodes have in all (their allocatable). */
  double inventory(int id) {
    return inventory.getOrDefault(id, 0.0);
  }

  /** The resource index that counts card {@code id}, or -1 when no node has it. */
  int resource(int id) {
    return resourceOf.get(id);
  }

  /** The names of the cards some node has, sorted. */
  List<String> nodeCardNames() {
    List<String> out = new ArrayList<>();
    for (int id = 0; id < names.size(); id++) {
      if (resourceOf.get(id) >= 0) {
        out.add(names.get(id));
      }
    }
    Collections.sort(out);
    return out;
  }

  /** Whether some node counts a card with this resource. */
  boolean isCardResource(int resourceIndex) {
    return resourceIndex < cardResource.length && cardResource[resourceIndex];
  }

  /** The cards of {@code node}. */
  NodeTable node(NodeInfo node) {
    int i = node.index();
    if (i >= 0 && i < byIndex.length) {
      return byIndex[i];
    }
    NodeTable t = byName.get(node.name());
    return t == null ? NodeTable.NONE : t;
  }

  /** The cards of the node called {@code name}. */
  NodeTable node(String name) {
    NodeTable t = byName.get(name);
    return t == null ? NodeTable.NONE : t;
  }
}
