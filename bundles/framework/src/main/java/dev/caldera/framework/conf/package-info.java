/**
 * The {@code volcano-scheduler.conf} schema: actions, tiers of plugin entries with Volcano's enable
 * flags and arguments ({@link dev.caldera.framework.conf.FlagGates}: which flag gates which
 * extension point, read from {@link dev.caldera.framework.ExtensionTable}), and per-action
 * configurations. Volcano's spelling of every key lives here and nowhere else.
 */
@Export
@Version("1.2.0")
package dev.caldera.framework.conf;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
