package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * Volcano's {@code PredicateHelper.PredicateNodes}, deterministic: every candidate node is checked
 * (no sampling, no rotating start), in parallel when there are many, and the feasible nodes come
 * back in candidate order.
 *
 * <p>The error cache: when enabled and the task has a role, a node that failed a task of the same
 * job and role before, during this helper's life, fails again without being checked.
 *
 * <p>Not thread-safe; a {@link Filtered} result is valid until the next {@link #filter} call on any
 * helper of the same {@link NodeSet}.
 */
final class PredicateHelper {

  /** Below this many candidates the checks run on the calling thread. */
  static final int PARALLEL_THRESHOLD = 256;

  /**
   * A success a check may return to tag a node (allocate: the node's idle holds the task); compared
   * by identity, its reason is never shown.
   */
  static final Status FITS_TAGGED = new Status(Status.Code.SUCCESS, List.of("fits idle"));

  private static final byte FAILED = 0;
  private static final byte PASSED = 1;
  private static final byte TAGGED = 2;

  /** Checks one node for a task: {@link Status#OK} keeps it, anything else rejects it. */
  @FunctionalInterface
  interface NodeCheck {
    Status check(TaskInfo task, NodeInfo node);
  }

  private final NodeSet nodes;
  private final boolean cacheEnabled;
  private final Map<String, Status[]> errorCache = new HashMap<>();

  PredicateHelper(NodeSet nodes, boolean cacheEnabled) {
    this.nodes = nodes;
    this.cacheEnabled = cacheEnabled;
  }

  /** Checks the nodes {@code candidates[0..count)} (indices into the node set, in order). */
  Filtered filter(TaskInfo task, int[] candidates, int count, NodeCheck check) {
    Status[] results = nodes.scratch();
    byte[] outcomes = nodes.outcomes();
    String cacheKey = cacheEnabled && !task.taskRole().isEmpty() ? cacheKey(task) : null;
    Status[] cached = cacheKey == null ? null : errorCache.get(cacheKey);
    // Successes are recorded as bytes: storing a reference per node per task into a long-lived
    // array costs a GC write barrier each time, and the common outcome needs none.
    IntConsumer checkAt =
        k -> {
          Status s = checkOne(task, candidates[k], cached, check);
          if (s == FITS_TAGGED) {
            outcomes[k] = TAGGED;
          } else if (s.isSuccess()) {
            outcomes[k] = PASSED;
          } else {
            outcomes[k] = FAILED;
            results[k] = s;
          }
        };
    if (count >= PARALLEL_THRESHOLD) {
      IntStream.range(0, count).parallel().forEach(checkAt);
    } else {
      for (int k = 0; k < count; k++) {
        checkAt.accept(k);
      }
    }
    if (cacheKey != null) {
      Status[] cache = cached;
      for (int k = 0; k < count; k++) {
        if (outcomes[k] == FAILED) {
          Status s = results[k];
          if (cache == null) {
            cache = new Status[nodes.size()];
            errorCache.put(cacheKey, cache);
          }
          cache[candidates[k]] = s;
        }
      }
    }
    return new Filtered(candidates, count, results, outcomes);
  }

  /** Checks every node. */
  Filtered filterAll(TaskInfo task, NodeCheck check) {
    return filter(task, nodes.all(), nodes.size(), check);
  }

  /**
   * The failures this helper remembers for the task's job and role, one slot per node (null where
   * none), or null when it remembers none for the task.
   */
  Status[] cachedErrors(TaskInfo task) {
    return cacheEnabled && !task.taskRole().isEmpty() ? errorCache.get(cacheKey(task)) : null;
  }

  /**
   * Remembers what a check of every node would have cached for the task: each failing node's status
   * where none is remembered yet.
   */
  void cacheFailures(TaskInfo task, NodeAnswers answers) {
    if (!cacheEnabled || task.taskRole().isEmpty() || answers.failedCount() == 0) {
      return;
    }
    Status[] cache = errorCache.computeIfAbsent(cacheKey(task), k -> new Status[nodes.size()]);
    for (int i = 0; i < cache.length; i++) {
      Status failure = answers.failure(i);
      if (failure != null && cache[i] == null) {
        cache[i] = failure;
      }
    }
  }

  private Status checkOne(TaskInfo task, int node, Status[] cached, NodeCheck check) {
    if (cached != null && cached[node] != null) {
      return cached[node];
    }
    return check.check(task, nodes.get(node));
  }

  private static String cacheKey(TaskInfo task) {
    return task.jobId() + "/" + task.taskRole();
  }

  /** The outcome of one {@link #filter} call. */
  final class Filtered {

    private List<NodeInfo> feasible;
    private final int[] candidates;
    private final int count;
    private final Status[] results;
    private final byte[] outcomes;

    private Filtered(int[] candidates, int count, Status[] results, byte[] outcomes) {
      this.candidates = candidates;
      this.count = count;
      this.results = results;
      this.outcomes = outcomes;
    }

    /** The node set the indices refer to. */
    NodeSet nodes() {
      return nodes;
    }

    /** Whether any node passed. */
    boolean anyFeasible() {
      if (feasible != null) {
        return !feasible.isEmpty();
      }
      for (int k = 0; k < count; k++) {
        if (outcomes[k] != FAILED) {
          return true;
        }
      }
      return false;
    }

    /** The nodes that passed, in candidate order (built on first use: allocate only partitions). */
    List<NodeInfo> feasible() {
      if (feasible == null) {
        feasible = new ArrayList<>();
        for (int k = 0; k < count; k++) {
          if (outcomes[k] != FAILED) {
            feasible.add(nodes.get(candidates[k]));
          }
        }
      }
      return feasible;
    }

    /**
     * Writes the node indices of the feasible nodes, in order, to {@code tagged} when their check
     * returned exactly {@link #FITS_TAGGED}, else to {@code others}; returns the two counts.
     */
    long partition(int[] tagged, int[] others) {
      int t = 0;
      int o = 0;
      for (int k = 0; k < count; k++) {
        byte outcome = outcomes[k];
        if (outcome == TAGGED) {
          tagged[t++] = candidates[k];
        } else if (outcome == PASSED) {
          others[o++] = candidates[k];
        }
      }
      return ((long) t << 32) | o;
    }

    /** Records the failure of every rejected node as the task's fit error on that node. */
    void recordFailures(ActionSession session, TaskInfo task) {
      for (int k = 0; k < count; k++) {
        if (outcomes[k] == FAILED) {
          session.recordFitError(task, nodes.get(candidates[k]).name(), results[k]);
        }
      }
    }
  }
}
