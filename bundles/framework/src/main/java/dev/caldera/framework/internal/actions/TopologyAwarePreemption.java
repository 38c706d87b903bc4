package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Preemption with a kube-scheduler-style dry run ({@code enableTopologyAwarePreemption}): on each
 * candidate node, in order, victims are removed in a simulation (a copy of the preemptor's cycle
 * state, the node's resources tracked here) until the preemptor fits, then re-added from the most
 * important down when it still fits without them. The best of the first {@code numCandidates}
 * successful nodes ({@link EvictionCandidate#best}) has its victims evicted and the preemptor
 * pipelined there.
 *
 * <p>Volcano starts at a random node and runs the dry runs in parallel; here they run in node order
 * from the first node, so the result does not depend on chance or thread timing.
 */
final class TopologyAwarePreemption {

  private final ActionSession session;
  private final PreemptOptions options;
  private final String reason;

  TopologyAwarePreemption(ActionSession session, PreemptOptions options, String reason) {
    this.session = session;
    this.options = options;
    this.reason = reason;
  }

  /** Finds a node and victims for the preemptor; true when it was pipelined into {@code stmt}. */
  boolean preempt(
      Statement stmt,
      TaskInfo preemptor,
      QueueInfo queue,
      List<NodeInfo> feasible,
      Predicate<TaskInfo> filter) {
    if (feasible.isEmpty()) {
      return false;
    }
    int wanted = options.candidatesToFind(feasible.size());
    List<EvictionCandidate> candidates = new ArrayList<>();
    for (NodeInfo node : feasible) {
      EvictionCandidate c = selectVictimsOnNode(preemptor, queue, node, filter);
      if (c != null) {
        candidates.add(c);
        if (candidates.size() >= wanted) {
          break;
        }
      }
    }
    EvictionCandidate best = EvictionCandidate.best(candidates);
    return best != null && apply(stmt, preemptor, best);
  }

  /** Evicts the candidate's victims and pipelines the preemptor on a temporary statement. */
  private boolean apply(Statement stmt, TaskInfo preemptor, EvictionCandidate best) {
    Statement tmp = session.newStatement();
    for (TaskInfo victim : best.victims()) {
      session.recordEvictionFor(victim, preemptor);
      tmp.evict(victim, reason);
    }
    NodeInfo node = best.node();
    if (!session.predicate(preemptor, node).resolvableByPreemption()
        || !tmp.pipeline(preemptor, node, true).isSuccess()) {
      tmp.discard();
      return false;
    }
    stmt.merge(tmp);
    return true;
  }

  /**
   * {@code SelectVictimsOnNode}: the minimal victims on the node after the reprieve, or null when
   * the preemptor cannot be made to fit there.
   */
  EvictionCandidate selectVictimsOnNode(
      TaskInfo preemptor, QueueInfo queue, NodeInfo node, Predicate<TaskInfo> filter) {
    List<TaskInfo> candidates = new ArrayList<>();
    for (TaskInfo t : node.tasks()) {
      if (filter.test(t)) {
        candidates.add(t);
      }
    }
    List<TaskInfo> allVictims = session.preemptable(preemptor, candidates);
    if (!NodeFit.fitsFutureIdle(
        preemptor.initResreq(), node, Preemption.sumOfRequests(allVictims))) {
      return null;
    }
    Simulation sim = new Simulation(preemptor, queue, node);
    List<TaskInfo> removed = new ArrayList<>();
    for (TaskInfo victim : session.victimOrder(allVictims, preemptor)) {
      removed.add(victim);
      if (!sim.remove(victim)) {
        return null;
      }
      if (sim.fits()) {
        break;
      }
    }
    if (removed.isEmpty()) {
      return sim.fits() ? new EvictionCandidate(node, List.of()) : null;
    }
    if (!sim.predicatePasses()) {
      return null;
    }
    // Reprieve from the most important (last removed) down: keep each one that is not needed.
    List<TaskInfo> victims = new ArrayList<>();
    for (int i = removed.size() - 1; i >= 0; i--) {
      TaskInfo victim = removed.get(i);
      if (!sim.add(victim)) {
        return null;
      }
      if (!sim.fits()) {
        if (!sim.remove(victim)) {
          return null;
        }
        victims.add(victim);
      }
    }
    return new EvictionCandidate(node, victims);
  }

  /** The preemptor's view of one node with some of its tasks removed. */
  private final class Simulation {

    private final TaskInfo preemptor;
    private final QueueInfo queue;
    private final NodeInfo node;
    private final CycleState state;
    private final Resource freed = Resource.empty();

    Simulation(TaskInfo preemptor, QueueInfo queue, NodeInfo node) {
      this.preemptor = preemptor;
      this.queue = queue;
      this.node = node;
      this.state = session.cycleState(preemptor).copy();
    }

    boolean remove(TaskInfo task) {
      if (!session.simulateRemoveTask(state, preemptor, task, node).isSuccess()) {
        return false;
      }
      freed.add(task.resreq());
      return true;
    }

    boolean add(TaskInfo task) {
      if (!session.simulateAddTask(state, preemptor, task, node).isSuccess()) {
        return false;
      }
      freed.sub(task.resreq());
      return true;
    }

    /** The queue may take it, the simulated future idle holds it, the predicates pass. */
    boolean fits() {
      return queue != null
          && session.simulateAllocatable(state, queue, preemptor)
          && NodeFit.fitsFutureIdle(preemptor.initResreq(), node, freed)
          && predicatePasses();
    }

    boolean predicatePasses() {
      return session.simulatePredicate(state, preemptor, node).isSuccess();
    }
  }
}
