package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Allocate's incremental path: the {@link NodeAnswers} of each node-local key seen in this action
 * run, and the node the full scan would choose for a task, found without evaluating every node.
 *
 * <p>It answers only where it can be exact and leaves the rest to the full scan (null): a task
 * without a node-local key (some per-node function reads more than the task and the node), a task
 * with a nominated node (tried first by the full scan), a score the full scan would not rank the
 * same way (NaN or infinite), a best node the job's per-role error cache already rejects, and a
 * task no node holds (the full scan records every node's fit error).
 *
 * <p>Keys are kept least recently used first, at most as many as {@link #CELLS} allows for the
 * cluster's size, so memory stays bounded by a few arrays of the node count.
 */
final class NodeAnswerCache {

  /** Node slots kept over all keys: bounds the memory to a few tens of megabytes. */
  static final int CELLS = 4_000_000;

  private final ActionSession session;
  private final NodeSet nodes;
  private final Map<Object, NodeAnswers> byKey;

  NodeAnswerCache(ActionSession session, NodeSet nodes) {
    this.session = session;
    this.nodes = nodes;
    int capacity = Math.max(2, CELLS / Math.max(1, nodes.size()));
    this.byKey =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Object, NodeAnswers> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * The node the full scan would choose for {@code task}, or null when the full scan must decide.
   * Call after the task's pre-predicates.
   *
   * @param rememberFailures whether to remember in {@code helper} what the full scan's checks would
   *     have remembered (not when the full scan runs too, so that it finds its own answers)
   */
  NodeInfo choose(TaskInfo task, PredicateHelper helper, boolean rememberFailures) {
    if (nodes.size() == 0 || !task.pod().nominatedNodeName().isEmpty()) {
      return null;
    }
    Object functionsKey = session.nodeLocalKey(task);
    if (functionsKey == null || session.nodeChanges() < 0) {
      return null;
    }
    Object key = List.of(task.initResreq().valueKey(), functionsKey);
    NodeAnswers answers = byKey.get(key);
    int evaluated;
    if (answers == null) {
      answers = NodeAnswers.build(session, nodes, task);
      byKey.put(key, answers);
      evaluated = nodes.size();
    } else {
      evaluated = answers.refresh(session, task);
    }
    session.countReusedAnswers(nodes.size() - evaluated);
    if (answers.unusable()) {
      return null;
    }
    int best = answers.best();
    if (best < 0) {
      return null;
    }
    Status[] remembered = helper.cachedErrors(task);
    if (remembered != null && remembered[best] != null) {
      return null;
    }
    if (rememberFailures) {
      helper.cacheFailures(task, answers);
    }
    return nodes.get(best);
  }
}
