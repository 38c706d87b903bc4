/**
 * The implementations of the API's placement views ({@code dev.caldera.api.placement}): the parsers
 * of a pod's placement terms ({@link PodPlacements}, what {@code TaskInfo.placement()} hands out,
 * and the parts it is made of: {@link LabelSelectors}, {@link NodeSelections}, {@link
 * AffinityTerms}, {@link SpreadConstraints}) with their matching, the counts per topology pair
 * ({@link PairCounts}), and the counts of placed pods a session shares with its plugins, kept by
 * whoever owns the session's placements ({@link TopologyKeeper} implements the API's {@link
 * dev.caldera.api.placement.SessionTopology}). Plugins parse terms of their own here (a volume's
 * node affinity, a selector of their own); they read the session's counts through the API and never
 * call the keeper's change methods.
 */
@Export
@Version("1.1.0")
package dev.caldera.support.placement;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
