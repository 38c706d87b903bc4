/**
 * The counts of placed pods a session shares with its plugins, kept by whoever owns the session's
 * placements: {@link TopologyKeeper} implements the API's {@link
 * dev.caldera.api.placement.SessionTopology}. Plugins read the counts through that interface and
 * never import this package to change them.
 */
@Export
@Version("1.0.0")
package dev.caldera.support.placement;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
