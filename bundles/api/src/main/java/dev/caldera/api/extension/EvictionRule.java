package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * An optional ability of a {@link ReclaimableFn} or {@link PreemptableFn}: naming the rule that let
 * it permit one victim, for the eviction's event ({@code tidal.policy:18 (any may reclaim
 * training)}). A function without it is named by its plugin.
 *
 * <ul>
 *   <li>Called by: the session, once per eviction an action decides (not per candidate), right
 *       before the victim is evicted, after the function permitted it in the deciding tier.
 *   <li>Threading: on the session's thread.
 *   <li>Null or blank: the plugin's name stands for the rule.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface EvictionRule {
  String rule(TaskInfo evictor, TaskInfo victim);
}
