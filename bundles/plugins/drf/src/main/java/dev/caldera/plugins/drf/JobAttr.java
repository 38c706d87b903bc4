package dev.caldera.plugins.drf;

import dev.caldera.support.resource.Resource;

/** A job's (or hierarchy node's) allocation and its dominant share ({@code drfAttr}). */
final class JobAttr {

  Resource allocated;
  double share;

  JobAttr(Resource allocated) {
    this.allocated = allocated;
  }

  JobAttr copy() {
    JobAttr c = new JobAttr(allocated.copy());
    c.share = share;
    return c;
  }

  void updateShare(DominantShare shares) {
    share = shares.of(allocated);
  }
}
