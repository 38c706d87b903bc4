package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * What allocate's full scan would find on every node for the tasks of one node-local key: per node,
 * whether it passes (and whether its idle already holds the task) or the status it fails with, and
 * its score, ranked in a {@link BestNodeTree}. Built with one full evaluation; afterwards only the
 * nodes in the session's change log since the last look are evaluated again, which is exact because
 * every per-node function of the session declared that its answer depends only on the task's key
 * and the node's state ({@link dev.caldera.api.extension.NodeLocality}).
 *
 * <p>Memory: a few primitive arrays per key, one slot per node; no per-(task, node) objects.
 */
final class NodeAnswers {

  static final byte FAILED = 0;
  static final byte FUTURE_IDLE = 1;
  static final byte IDLE = 2;

  private final NodeSet nodes;
  private final byte[] gradient;
  private final double[] score;
  private final Status[] failure;
  private final int[] seen;
  private final BestNodeTree tree;
  private int mark;
  private int looks;
  private int failed;
  private boolean unusable;

  private NodeAnswers(NodeSet nodes) {
    this.nodes = nodes;
    int n = nodes.size();
    this.gradient = new byte[n];
    this.score = new double[n];
    this.failure = new Status[n];
    this.seen = new int[n];
    this.tree = new BestNodeTree(gradient, score);
  }

  /** Evaluates every node for {@code task}. */
  static NodeAnswers build(ActionSession session, NodeSet nodes, TaskInfo task) {
    NodeAnswers answers = new NodeAnswers(nodes);
    answers.mark = session.nodeChanges();
    AllocPredicate predicate = new AllocPredicate(session, task);
    int n = nodes.size();
    IntStream range = IntStream.range(0, n);
    (n >= PredicateHelper.PARALLEL_THRESHOLD ? range.parallel() : range)
        .forEach(i -> answers.classify(i, predicate.check(task, nodes.get(i))));
    List<NodeInfo> passing = new ArrayList<>();
    int[] indices = new int[n];
    for (int i = 0; i < n; i++) {
      if (answers.gradient[i] != FAILED) {
        indices[passing.size()] = i;
        passing.add(nodes.get(i));
      } else {
        answers.failed++;
      }
    }
    if (!passing.isEmpty()) {
      double[] scores = session.scoreNodes(task, passing);
      for (int k = 0; k < scores.length; k++) {
        answers.setScore(indices[k], scores[k]);
      }
    }
    answers.tree.rebuild();
    return answers;
  }

  /**
   * Brings the nodes changed since the last look up to date for {@code task}; returns how many were
   * evaluated.
   */
  int refresh(ActionSession session, TaskInfo task) {
    int end = session.nodeChanges();
    if (end == mark) {
      return 0;
    }
    looks++;
    AllocPredicate predicate = null;
    int evaluated = 0;
    for (int p = mark; p < end; p++) {
      int i = session.changedNode(p);
      if (seen[i] == looks) {
        continue;
      }
      seen[i] = looks;
      if (predicate == null) {
        predicate = new AllocPredicate(session, task);
      }
      NodeInfo node = nodes.get(i);
      boolean wasFailed = gradient[i] == FAILED;
      classify(i, predicate.check(task, node));
      if (gradient[i] != FAILED) {
        setScore(i, session.scoreNode(task, node));
      }
      failed += (gradient[i] == FAILED ? 1 : 0) - (wasFailed ? 1 : 0);
      tree.update(i);
      evaluated++;
    }
    mark = end;
    return evaluated;
  }

  /** The best node's index, or -1 when every node fails. */
  int best() {
    int best = tree.best();
    return best < 0 || gradient[best] == FAILED ? -1 : best;
  }

  /**
   * Whether a score could not be ranked as the full scan ranks it (NaN or infinite, or a batch
   * function that failed): the tasks of this key then go through the full scan.
   */
  boolean unusable() {
    return unusable;
  }

  /** How many nodes fail. */
  int failedCount() {
    return failed;
  }

  /** The status node {@code i} fails with, or null when it passes. */
  Status failure(int i) {
    return gradient[i] == FAILED ? failure[i] : null;
  }

  private void classify(int i, Status s) {
    if (s == NodeGradients.FITS_IDLE) {
      gradient[i] = IDLE;
      failure[i] = null;
    } else if (s.isSuccess()) {
      gradient[i] = FUTURE_IDLE;
      failure[i] = null;
    } else {
      gradient[i] = FAILED;
      failure[i] = s;
      score[i] = 0;
    }
  }

  private void setScore(int i, double s) {
    if (!Double.isFinite(s)) {
      unusable = true;
    }
    score[i] = s;
  }
}
