package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.ContainerImage;
import dev.caldera.api.model.Node;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The images on one node with their spread-scaled sizes ({@code scaledImageScore}: size × nodes
 * having the image / all nodes), looked up by a container's image name as kube-scheduler does after
 * {@code normalizedImageName} (a name without a tag means {@code :latest}). Immutable, so that node
 * order functions may read it concurrently.
 */
final class ImageScores {

  private static final String LATEST = ":latest";

  private final Map<String, Long> byName;

  /** Untagged names that normalise to one of {@link #byName}'s {@code :latest} entries. */
  private final Map<String, Long> byUntaggedName;

  private ImageScores(Map<String, Long> byName, Map<String, Long> byUntaggedName) {
    this.byName = byName;
    this.byUntaggedName = byUntaggedName;
  }

  /** How many of {@code nodes} have each image name. */
  static Map<String, Integer> nodeCounts(List<Node> nodes) {
    Map<String, Integer> counts = new HashMap<>();
    for (Node node : nodes) {
      for (String name : names(node)) {
        counts.merge(name, 1, Integer::sum);
      }
    }
    return counts;
  }

  private static Set<String> names(Node node) {
    Set<String> names = new LinkedHashSet<>();
    for (ContainerImage image : node.images()) {
      names.addAll(image.names());
    }
    return names;
  }

  /** The node's image scores, or null if it has no images. */
  static ImageScores of(Node node, Map<String, Integer> nodeCounts, int totalNodes) {
    if (node.images().isEmpty() || totalNodes <= 0) {
      return null;
    }
    Map<String, Long> byName = new HashMap<>();
    Map<String, Long> byUntagged = new HashMap<>();
    for (ContainerImage image : node.images()) {
      for (String name : image.names()) {
        double spread = (double) nodeCounts.getOrDefault(name, 1) / (double) totalNodes;
        long scaled = (long) ((double) image.sizeBytes() * spread);
        byName.put(name, scaled);
        if (name.endsWith(LATEST)) {
          String untagged = name.substring(0, name.length() - LATEST.length());
          if (needsTag(untagged)) {
            byUntagged.put(untagged, scaled);
          }
        }
      }
    }
    return new ImageScores(byName, byUntagged);
  }

  /** The scaled score of a container image present on this node, else 0. */
  long scaled(String image) {
    Long v = needsTag(image) ? byUntaggedName.get(image) : byName.get(image);
    return v == null ? 0 : v;
  }

  /**
   * {@code normalizedImageName} appends {@code :latest} when the last ':' is not after the last
   * '/'.
   */
  private static boolean needsTag(String image) {
    return image.lastIndexOf(':') <= image.lastIndexOf('/');
  }
}
