/**
 * The contract of a pod's placement terms parsed once: label selectors, required and preferred node
 * selection, pod (anti-)affinity terms and topology spread constraints ({@link PodPlacement}, what
 * kube-scheduler's {@code PodInfo} holds), and the per-topology-pair counts the inter-pod filters
 * and scores keep ({@link TopologyCounts}). Every type here is a read-only view: the parsers, the
 * matching and the counts are implemented in the api-support bundle ({@code
 * dev.caldera.support.placement}), which plugins import to parse terms of their own. The predicates
 * and nodeorder plugins read the same parsed terms through {@link
 * dev.caldera.api.info.TaskInfo#placement()}, which the framework parses once per pod and session.
 *
 * <p>The counts over the pods already placed are shared too: {@link SessionTopology} (from {@link
 * dev.caldera.api.Session#topology()}) computes each count once per session and key and the
 * framework keeps it up to date (its one implementation, {@code TopologyKeeper}, is in the
 * api-support bundle), and each node lists its counted pods with (anti-)affinity terms ({@link
 * dev.caldera.api.info.NodeInfo#podsWithAffinity()}, {@link
 * dev.caldera.api.info.NodeInfo#podsWithRequiredAntiAffinity()}).
 */
@Export
@Version("2.0.0")
package dev.caldera.api.placement;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
