package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Pod;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Each pod's {@link PodRequest}, kept from one session to the next while the pod is the same
 * object: a cluster source hands sessions the same {@link Pod} until it changes, and every session
 * that places anything counts every pod of every node, so without this a cluster of 20,000 bound
 * pods has each of them read again every session. Matched by identity (a pod's {@code equals}
 * compares every field); only the last session's pods are kept.
 *
 * <p>Thread-safe: each session reads the last published generation and publishes its own.
 */
final class PodRequests {

  private volatile Map<Pod, PodRequest> last = new IdentityHashMap<>();

  /**
   * The requests for one session. Not thread-safe: one session's thread uses it. Once published it
   * is only read, as later sessions read it too.
   */
  final class Generation {
    private final Map<Pod, PodRequest> previous = last;
    private final Map<Pod, PodRequest> current = new IdentityHashMap<>();
    private boolean published;

    PodRequest of(Pod pod) {
      PodRequest r = current.get(pod);
      if (r == null) {
        r = previous.get(pod);
        if (r == null) {
          r = PodRequest.of(pod);
        }
        if (!published) {
          current.put(pod, r);
        }
      }
      return r;
    }

    void publish() {
      published = true;
      last = current;
    }
  }

  Generation next() {
    return new Generation();
  }
}
