/**
 * The scheduling framework's entry points: {@link dev.caldera.framework.Scheduler} runs a session
 * on a {@link dev.caldera.framework.ClusterSnapshot} and returns a {@link
 * dev.caldera.framework.SessionResult}; plugins and actions come from a {@link
 * dev.caldera.framework.PluginRegistry}.
 *
 * <h2>How extension points combine (Volcano's {@code session_plugins.go})</h2>
 *
 * <p>Every point walks the tiers in order and, inside a tier, the plugin entries in conf order,
 * skipping an entry whose enable flag is off or that registered nothing:
 *
 * <ul>
 *   <li>job, queue and task order: the first non-zero comparison wins; then creation time, then UID
 *       (tasks: pod index first).
 *   <li>victim-queue order: first non-zero; else the reverse of queue order.
 *   <li>predicate and pre-predicate: every plugin must pass; the first failure is returned.
 *   <li>node order and batch node order: scores add up.
 *   <li>preemptable and reclaimable: inside a tier the victim lists intersect (keeping the first
 *       plugin's order); an abstaining plugin is skipped; an empty answer ends the tier without a
 *       result, and the first tier with a non-empty result decides.
 *   <li>overused: OR. preemptive, allocatable and job ready: AND.
 *   <li>job enqueueable and job pipelined: a reject anywhere rejects at once; a permit ends the
 *       walk at the end of its tier; all abstaining permits.
 *   <li>job valid: the first failing result.
 *   <li>job starving: AND inside the first tier that has any enabled function.
 *   <li>victim tasks: the union inside the first tier whose union is not empty.
 *   <li>event handlers: all, in the order plugins were opened.
 * </ul>
 */
@Export
@Version("1.2.0")
package dev.caldera.framework;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
