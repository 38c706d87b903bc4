package dev.caldera.plugins.drf;

import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;

/**
 * Dominant share against a fixed total ({@code calculateShare}): the largest {@code allocated[r] /
 * total[r]} over the dimensions the total has (at least ε), {@code pods} included; never below 0.
 */
final class DominantShare {

  private final ResourceView total;
  private final int[] dimensions;

  DominantShare(ResourceView total) {
    this.total = total;
    this.dimensions = total.resourceIndices();
  }

  ResourceView total() {
    return total;
  }

  int[] dimensions() {
    return dimensions;
  }

  double of(ResourceView allocated) {
    double share = 0;
    for (int i : dimensions) {
      double s = Resource.share(allocated.get(i), total.get(i));
      if (s > share) {
        share = s;
      }
    }
    return share;
  }
}
