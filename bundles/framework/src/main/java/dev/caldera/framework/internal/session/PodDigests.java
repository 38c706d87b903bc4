package dev.caldera.framework.internal.session;

import dev.caldera.api.info.PodFacts;
import dev.caldera.api.model.Pod;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * What a session reads from each pod before it schedules ({@link PodFacts}, the request, the bounds
 * check), kept from one session to the next for the pods that are still the same object.
 *
 * <p>A cluster cache hands the next session the same {@link Pod} instance until the pod changes,
 * and every value here is a pure function of the pod: a session on a cluster of 20,000 bound pods
 * and a few new ones reads only the new ones. Pods are matched by identity, never by {@code
 * equals}, which would compare every field ({@link PodAlignment}). Only the last session's pods are
 * kept, so a pod that is gone is forgotten one session later.
 *
 * <p>Thread-safe: each session builds its own generation and publishes it when its pods are read;
 * two sessions at once each read the last published one (a miss only costs the reading).
 */
public final class PodDigests {

  /**
   * What a session reads from one pod; {@code request} is shared by the pod's tasks of every
   * session, which only read it. The key is kept too: made anew it would be hashed anew in every
   * map of every session. {@code boundsProblem}: why the pod cannot be scheduled with ({@link
   * ResourceBounds#problem(Pod)}), or null.
   */
  record Digest(PodFacts facts, Resource request, int podIndex, String boundsProblem, String key) {}

  /** The last published session's pods and their digests, at the same positions. */
  private record Published(Pod[] pods, Digest[] digests) {}

  private static final Published NONE = new Published(new Pod[0], new Digest[0]);

  private volatile Published last = NONE;

  /**
   * Reads {@code pod}; a pod out of bounds gets only its problem (its request cannot be summed).
   */
  static Digest digest(Pod pod) {
    String problem = ResourceBounds.problem(pod);
    if (problem != null) {
      return new Digest(null, null, -1, problem, pod.key());
    }
    return new Digest(
        PodFacts.of(pod), Resource.requestOf(pod), TaskState.podIndex(pod.name()), null, pod.key());
  }

  /** A generation for one session's pods; {@link Generation#publish} makes it the next's base. */
  Generation next(int expectedPods) {
    return new Generation(last, expectedPods);
  }

  /**
   * Digests for the pods of one session, asked in snapshot order (see {@link PodAlignment}; another
   * order only costs reading). Not thread-safe: one session's thread uses it.
   */
  final class Generation {
    private final Published previous;
    private final PodAlignment alignment;
    private final List<Pod> pods;
    private final List<Digest> digests;

    private Generation(Published previous, int expectedPods) {
      this.previous = previous;
      this.alignment = new PodAlignment(previous.pods);
      this.pods = new ArrayList<>(expectedPods);
      this.digests = new ArrayList<>(expectedPods);
    }

    Digest of(Pod pod) {
      int at = alignment.find(pod);
      Digest d = at >= 0 ? previous.digests[at] : digest(pod);
      pods.add(pod);
      digests.add(d);
      return d;
    }

    void publish() {
      last = new Published(pods.toArray(new Pod[0]), digests.toArray(new Digest[0]));
    }
  }
}
