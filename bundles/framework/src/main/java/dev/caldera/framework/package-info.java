/**
 * The scheduling framework's entry points: {@link dev.caldera.framework.Scheduler} runs a session
 * on a {@link dev.caldera.framework.ClusterSnapshot} and returns a {@link
 * dev.caldera.framework.SessionResult}; plugins and actions come from a {@link
 * dev.caldera.framework.PluginRegistry}.
 *
 * <h2>How extension points combine (Volcano's {@code session_plugins.go})</h2>
 *
 * <p>Every point walks the tiers in order and, inside a tier, the plugin entries in conf order,
 * skipping an entry whose enable flag is off or that registered nothing. {@link
 * dev.caldera.framework.ExtensionTable} holds each point's gates and how the answers of several
 * plugins combine, once: a session freezes and dispatches by it. Each point's full rule (which
 * actions call it, how the answers combine, its flag, its threading rule and what null means) is in
 * the Javadoc of its function type in {@code dev.caldera.api.extension}; {@code
 * CombinationRulesTest} checks the combinations, {@code ExtensionContractsTest} that the Javadoc
 * names the table's gates.
 */
@Export
@Version("1.7.0")
package dev.caldera.framework;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
