package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs once per task before its node loop (Kubernetes' PreFilter); a failure rejects the task on
 * every node.
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code backfill}, {@code preempt} and {@code reclaim}.
 *   <li>Combined: every enabled plugin must pass; the first failure is the answer (the session adds
 *       the plugin's name, {@link Status#plugin()}).
 *   <li>Gate: {@code enablePredicate}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: a null status counts as success.
 * </ul>
 *
 * <p>Inter-pod affinity and topology spread counts over the pods already placed are not computed
 * here per task: they are the session's, shared by every plugin ({@link
 * dev.caldera.api.Session#topology()}, computed once per key and kept up to date by the framework;
 * each node's {@link dev.caldera.api.info.NodeInfo#podsWithAffinity()} and {@link
 * dev.caldera.api.info.NodeInfo#podsWithRequiredAntiAffinity()}).
 */
@ConsumerType
@FunctionalInterface
public interface PrePredicateFn {
  Status check(TaskInfo task);
}
