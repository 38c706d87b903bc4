package dev.caldera.framework.internal.session;

import dev.caldera.api.model.Pod;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The tasks, jobs and nodes the last session opened with, for the next session to take again those
 * that neither the cluster nor that session changed.
 *
 * <p>A session opens a task for each pod, a job for each pod group and a node for each node, from
 * the whole snapshot, as Volcano's does; on a cluster of 20,000 bound pods and a few new ones that
 * is most of a session's time, though almost nothing changed. A task is taken again when its pod is
 * the same object and the last session did not change it; a job or node when its pod group or node
 * is the same object, the last session did not change it, and it gets exactly the same tasks in the
 * same order. What is taken is then in the state a fresh open would give it, so decisions are the
 * same either way.
 *
 * <p>A session claims the states and hands its own over when it has closed; a session that fails
 * hands nothing over, and one that runs beside another (which claimed them) opens everything anew.
 */
public final class CarriedStates {

  /**
   * What a session opened with.
   *
   * @param pods its pods after the bounds check, in snapshot order
   * @param tasks the task of each pod
   * @param jobs its jobs by uid
   * @param nodes its nodes by name
   */
  record Opened(
      Pod[] pods, TaskState[] tasks, Map<String, JobState> jobs, Map<String, NodeState> nodes) {
    static final Opened NONE = new Opened(new Pod[0], new TaskState[0], Map.of(), Map.of());
  }

  private final AtomicReference<Opened> last = new AtomicReference<>(Opened.NONE);

  /** The last session's states, which only the caller may use now; NONE when another has them. */
  Opened claim() {
    return last.getAndSet(Opened.NONE);
  }

  /** Hands a closed session's states to the next. */
  void handOver(Opened opened) {
    last.set(opened);
  }
}
