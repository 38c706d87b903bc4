/**
 * The {@code volcano-scheduler.conf} schema: actions, tiers of plugin entries with Volcano's enable
 * flags and arguments (which flag gates which extension point is a column of {@link
 * dev.caldera.framework.ExtensionTable}), and per-action configurations. Volcano's spelling of
 * every key lives here and nowhere else.
 */
@Export
@Version("2.0.0")
package dev.caldera.framework.conf;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
