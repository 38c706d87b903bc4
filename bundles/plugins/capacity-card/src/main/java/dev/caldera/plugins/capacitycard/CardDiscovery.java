package dev.caldera.plugins.capacitycard;

import dev.caldera.api.model.Node;
import dev.caldera.api.resource.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the cards of one node from its labels and allocatable resources, for any vendor.
 *
 * <ul>
 *   <li>The model comes from a label {@code <vendor-domain>/<type>.product} (e.g. {@code
 *       nvidia.com/gpu.product: NVIDIA-H200}); labels with {@code .count} and {@code .memory} (MiB)
 *       beside it are preferred when several match.
 *   <li>Whole cards: the allocatable resource with the vendor's prefix that is neither an MPS nor a
 *       MIG resource ({@code <vendor-domain>/<type>} itself when present), named after the model.
 *   <li>MPS slices: allocatable {@code <vendor-domain>/<type>.shared} with the label {@code
 *       <vendor-domain>/<type>.replicas}, named {@code <model>/mps-<memory GiB, rounded
 *       down>g*1/<replicas>}.
 *   <li>MIG slices (mixed strategy): allocatable {@code <vendor-domain>/mig-<profile>}, named
 *       {@code <model>/mig-<profile>-mixed}.
 * </ul>
 *
 * A node has one model; resources of other vendors (RDMA, InfiniBand, …) are not cards. A resource
 * with no positive allocatable is not a card of the node.
 */
final class CardDiscovery {

  /** {@code <vendor-domain>/<type>.product}; MIG labels ({@code nvidia.com/mig-*}) excluded. */
  private static final Pattern PRODUCT_LABEL = Pattern.compile("^(([^/]+)/(\\w+))\\.product$");

  private static final String MIG_PREFIX = "mig-";

  /**
   * One card kind on a node.
   *
   * @param name the card name used in quotas and annotations
   * @param resource the allocatable resource that counts it
   * @param count how many the node has
   */
  record Card(String name, String resource, long count) {}

  /**
   * The cards of a node.
   *
   * @param model the product label's value, or empty when the node has no card labels
   * @param memoryMiB the {@code .memory} label, or -1 when absent or not a number
   * @param cards whole cards first, then slices, each group by resource name
   */
  record NodeCards(String model, long memoryMiB, List<Card> cards) {
    static final NodeCards NONE = new NodeCards("", -1, List.of());

    NodeCards {
      cards = List.copyOf(cards);
    }
  }

  private CardDiscovery() {}

  /** The cards of {@code node}. */
  static NodeCards discover(Node node) {
    Map<String, String> labels = new TreeMap<>(node.metadata().labels());
    Matcher best = null;
    for (String key : labels.keySet()) {
      Matcher m = PRODUCT_LABEL.matcher(key);
      if (!m.matches() || m.group(3).startsWith(MIG_PREFIX) || labels.get(key).isBlank()) {
        continue;
      }
      if (best == null || (!complete(labels, best.group(1)) && complete(labels, m.group(1)))) {
        best = m;
      }
    }
    if (best == null) {
      return NodeCards.NONE;
    }
    String labelPrefix = best.group(1);
    String domain = best.group(2);
    String model = labels.get(best.group(0)).trim();
    long memoryMiB = parseLong(labels.get(labelPrefix + ".memory"));
    long replicas = parseLong(labels.get(labelPrefix + ".replicas"));
    String mpsResource = labelPrefix + ".shared";
    String migPrefix = domain + "/" + MIG_PREFIX;

    Map<String, Long> allocatable = new TreeMap<>();
    for (Map.Entry<String, Quantity> e : node.allocatable().entrySet()) {
      if (e.getKey().startsWith(domain + "/") && e.getValue().amount().signum() > 0) {
        allocatable.put(e.getKey(), e.getValue().value());
      }
    }
    List<Card> cards = new ArrayList<>();
    String whole = allocatable.containsKey(labelPrefix) ? labelPrefix : null;
    if (whole == null) {
      for (String r : allocatable.keySet()) {
        if (!r.equals(mpsResource) && !r.startsWith(migPrefix)) {
          whole = r;
          break;
        }
      }
    }
    if (whole != null) {
      cards.add(new Card(model, whole, allocatable.get(whole)));
    }
    if (allocatable.containsKey(mpsResource) && replicas > 0 && memoryMiB >= 0) {
      // Nearest GiB, as the design's example and Volcano name them: 81559 MiB is mps-80g.
      String name = model + "/mps-" + Math.round(memoryMiB / 1024.0) + "g*1/" + replicas;
      cards.add(new Card(name, mpsResource, allocatable.get(mpsResource)));
    }
    for (Map.Entry<String, Long> e : allocatable.entrySet()) {
      if (e.getKey().startsWith(migPrefix)) {
        String profile = e.getKey().substring(migPrefix.length());
        cards.add(new Card(model + "/mig-" + profile + "-mixed", e.getKey(), e.getValue()));
      }
    }
    return new NodeCards(model, memoryMiB, cards);
  }

  private static boolean complete(Map<String, String> labels, String labelPrefix) {
    return labels.containsKey(labelPrefix + ".count")
        && labels.containsKey(labelPrefix + ".memory");
  }

  private static long parseLong(String text) {
    if (text == null) {
      return -1;
    }
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
