package dev.caldera.framework.internal.actions;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.action.ActionSession;

/**
 * Typed reading of an action's {@code configurations} arguments. Volcano's keys and defaults live
 * here; a wrong type fails the session naming the action and the key, it is never replaced by the
 * default.
 */
final class ActionArguments {

  /** allocate, backfill, preempt, reclaim: the per-role predicate error cache. */
  static final String PREDICATE_ERROR_CACHE = "predicateErrorCacheEnable";

  static final String TOPOLOGY_AWARE_PREEMPTION = "enableTopologyAwarePreemption";
  static final String TOPOLOGY_AWARE_WORKERS = "topologyAwarePreemptWorkerNum";
  static final String MIN_CANDIDATE_PERCENTAGE = "minCandidateNodesPercentage";
  static final String MIN_CANDIDATE_ABSOLUTE = "minCandidateNodesAbsolute";
  static final String MAX_CANDIDATE_ABSOLUTE = "maxCandidateNodesAbsolute";

  private final String action;
  private final PluginArguments values;

  private ActionArguments(String action, PluginArguments values) {
    this.action = action;
    this.values = values;
  }

  /** The arguments the conf gives {@code action}. */
  static ActionArguments of(ActionSession session, String action) {
    return new ActionArguments(
        action, new PluginArguments(action, session.actionArguments(action), false));
  }

  boolean getBoolean(String key, boolean defaultValue) {
    try {
      return values.getBoolean(key, defaultValue);
    } catch (PluginArgumentException e) {
      throw renamed(e);
    }
  }

  /** allocate: how nodes are evaluated ({@link NodeScan}). */
  static final String NODE_SCAN = "nodeScan";

  String getString(String key, String defaultValue) {
    try {
      return values.getString(key, defaultValue);
    } catch (PluginArgumentException e) {
      throw renamed(e);
    }
  }

  /** The action's error for a value of {@code key} that is not one of {@code expected}. */
  PluginArgumentException wrong(String key, Object value, String expected) {
    return renamed(values.wrong(key, value, expected));
  }

  int getInt(String key, int defaultValue) {
    try {
      return values.getInt(key, defaultValue);
    } catch (PluginArgumentException e) {
      throw renamed(e);
    }
  }

  private PluginArgumentException renamed(PluginArgumentException e) {
    String message = e.getMessage();
    String prefix = "plugin " + action;
    if (message.startsWith(prefix)) {
      message = "action " + action + message.substring(prefix.length());
    }
    return new PluginArgumentException(e.key(), message);
  }
}
