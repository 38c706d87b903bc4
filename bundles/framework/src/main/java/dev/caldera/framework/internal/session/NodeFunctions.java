package dev.caldera.framework.internal.session;

import static dev.caldera.framework.ExtensionTable.Combination.FIRST_FAILURE;
import static dev.caldera.framework.ExtensionTable.Combination.SUM;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.BatchNodeOrderFn;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.extension.PrePredicateFn;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

/**
 * The functions a session calls per task and per task x node, the ones it calls most:
 * pre-predicates, predicates and node scores, with the counts {@code caldera bench} reports and the
 * sampled times per plugin. Held as flat arrays of descriptors, so that the inner loops allocate
 * nothing.
 */
final class NodeFunctions {

  /** From this many candidate nodes on, node-order functions run in parallel (they may). */
  private static final int PARALLEL_SCORING_THRESHOLD = 256;

  /**
   * One call in SAMPLE_EVERY is timed (timing each call cost 70% more session time on caldera bench
   * small) and counts for SAMPLE_EVERY. The tick is shared by the scoring threads without
   * synchronisation: a lost increment only shifts which call is sampled.
   */
  static final int SAMPLE_EVERY = 64;

  private final Registered<PrePredicateFn>[] prePredicates;
  private final Registered<PredicateFn>[] predicates;
  private final Registered<NodeOrderFn>[] nodeOrders;
  private final Registered<BatchNodeOrderFn>[] batchNodeOrders;
  // The node localities of the functions above, predicates, node orders then batch node orders;
  // null when some function declared none (no reuse at all).
  private final NodeLocality[] localities;
  private final EvictionGuard guard;
  private int tick;

  final LongAdder tasksConsidered = new LongAdder();
  final LongAdder nodesFiltered = new LongAdder();
  final LongAdder nodesScored = new LongAdder();

  /** Per-node answers allocate reused instead of asking the plugins again (task × node). */
  final LongAdder nodesReused = new LongAdder();

  /**
   * @param guard the session's eviction guard (null: none), whose held capacity a predicate answer
   *     respects
   */
  NodeFunctions(Registrations.Frozen f, EvictionGuard guard) {
    this.prePredicates = array(f.get(ExtensionPoint.PRE_PREDICATE, FIRST_FAILURE));
    this.predicates = array(f.get(ExtensionPoint.PREDICATE, FIRST_FAILURE));
    this.nodeOrders = array(f.get(ExtensionPoint.NODE_ORDER, SUM));
    this.batchNodeOrders = array(f.get(ExtensionPoint.BATCH_NODE_ORDER, SUM));
    this.localities = allDeclared(predicates, nodeOrders, batchNodeOrders);
    this.guard = guard;
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // Java has no arrays of a generic type
  private static <T> Registered<T>[] array(Tiers<T> tiers) {
    return tiers.all().toArray(new Registered[0]);
  }

  private static NodeLocality[] allDeclared(Registered<?>[]... points) {
    List<NodeLocality> all = new ArrayList<>();
    for (Registered<?>[] point : points) {
      for (Registered<?> r : point) {
        if (r.locality() == null) {
          return null;
        }
        all.add(r.locality());
      }
    }
    return all.toArray(NodeLocality[]::new);
  }

  Status prePredicate(TaskInfo task) {
    tasksConsidered.increment();
    boolean timed = sampled();
    long t = timed ? System.nanoTime() : 0;
    for (Registered<PrePredicateFn> r : prePredicates) {
      Status s = r.fn().check(task);
      if (timed) {
        t = lap(r.clock(), t);
      }
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(r.plugin());
      }
    }
    return Status.OK;
  }

  Status predicate(TaskInfo task, NodeInfo node) {
    nodesFiltered.increment();
    boolean timed = sampled();
    long t = timed ? System.nanoTime() : 0;
    for (Registered<PredicateFn> r : predicates) {
      Status s = r.fn().check(task, node);
      if (timed) {
        t = lap(r.clock(), t);
      }
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(r.plugin());
      }
    }
    if (guard != null) {
      Status held = guard.holdCheck(task, node);
      if (held != null) {
        return held;
      }
    }
    return Status.OK;
  }

  double[] scoreNodes(TaskInfo task, List<NodeInfo> candidates) {
    int n = candidates.size();
    nodesScored.add(n);
    double[] scores = new double[n];
    if (nodeOrders.length > 0) {
      if (n >= PARALLEL_SCORING_THRESHOLD) {
        IntStream.range(0, n)
            .parallel()
            .forEach(i -> scores[i] = nodeOrderScore(task, candidates.get(i)));
      } else {
        for (int i = 0; i < n; i++) {
          scores[i] = nodeOrderScore(task, candidates.get(i));
        }
      }
    }
    if (batchNodeOrders.length > 0) {
      double[] batch = new double[n];
      boolean timed = sampled();
      long t = timed ? System.nanoTime() : 0;
      for (Registered<BatchNodeOrderFn> r : batchNodeOrders) {
        Status s = r.fn().score(task, candidates, batch);
        if (timed) {
          t = lap(r.clock(), t);
        }
        if (s != null && !s.isSuccess()) {
          // Volcano drops every batch score of the task when one batch scorer fails.
          return scores;
        }
      }
      for (int i = 0; i < n; i++) {
        scores[i] += batch[i];
      }
    }
    return scores;
  }

  double scoreNode(TaskInfo task, NodeInfo node) {
    nodesScored.increment();
    double score = nodeOrders.length > 0 ? nodeOrderScore(task, node) : 0;
    if (batchNodeOrders.length > 0) {
      double[] batch = new double[1];
      List<NodeInfo> alone = List.of(node);
      for (Registered<BatchNodeOrderFn> r : batchNodeOrders) {
        Status s = r.fn().score(task, alone, batch);
        if (s != null && !s.isSuccess()) {
          return Double.NaN;
        }
      }
      score += batch[0];
    }
    return score;
  }

  /** The key under which answers for {@code task} may be reused, or null. */
  Object nodeLocalKey(TaskInfo task) {
    if (localities == null) {
      return null;
    }
    Object[] keys = new Object[localities.length];
    for (int i = 0; i < keys.length; i++) {
      Object key = localities[i].taskKey(task);
      if (key == null) {
        return null;
      }
      keys[i] = key;
    }
    return List.of(keys);
  }

  private double nodeOrderScore(TaskInfo task, NodeInfo node) {
    double s = 0;
    boolean timed = sampled();
    long t = timed ? System.nanoTime() : 0;
    for (Registered<NodeOrderFn> r : nodeOrders) {
      s += r.fn().score(task, node);
      if (timed) {
        t = lap(r.clock(), t);
      }
    }
    return s;
  }

  /** Whether this call of a per-node function is one of the timed ones. */
  private boolean sampled() {
    return ++tick % SAMPLE_EVERY == 0;
  }

  /**
   * Adds the time since {@code since}, for {@link #SAMPLE_EVERY} calls, to {@code clock}; returns
   * now (the next function's start).
   */
  private static long lap(LongAdder clock, long since) {
    long now = System.nanoTime();
    clock.add((now - since) * SAMPLE_EVERY);
    return now;
  }
}
