package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/** kube-scheduler's ImageLocality score: the node's share of the pod's images, by size. */
final class ImageLocality {

  private static final long MB = 1024L * 1024;
  private static final long MIN_THRESHOLD = 23 * MB;
  private static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;
  private static final long MAX_NODE_SCORE = 100;

  private ImageLocality() {}

  /** The raw 0..100 score of {@code pod}'s init and regular container images on a node. */
  static long score(Pod pod, ImageScores images) {
    if (images == null) {
      return 0;
    }
    long sum = 0;
    for (Container c : pod.initContainers()) {
      sum += images.scaled(c.image() == null ? "" : c.image());
    }
    for (Container c : pod.containers()) {
      sum += images.scaled(c.image() == null ? "" : c.image());
    }
    return priority(sum, pod.initContainers().size() + pod.containers().size());
  }

  /** The images {@link #score} reads, in the order it reads them (a node-locality key). */
  static List<String> images(Pod pod) {
    List<String> images = new ArrayList<>();
    for (Container c : pod.initContainers()) {
      images.add(c.image() == null ? "" : c.image());
    }
    for (Container c : pod.containers()) {
      images.add(c.image() == null ? "" : c.image());
    }
    return images;
  }

  /** {@code calculatePriority}: the clamped sum mapped linearly onto 0..100. */
  static long priority(long sumScores, int containers) {
    long maxThreshold = MAX_CONTAINER_THRESHOLD * containers;
    long sum = sumScores;
    if (sum < MIN_THRESHOLD) {
      sum = MIN_THRESHOLD;
    } else if (sum > maxThreshold) {
      sum = maxThreshold;
    }
    return MAX_NODE_SCORE * (sum - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }
}
