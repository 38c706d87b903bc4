/**
 * The session's extension points: one function type per point ({@code *Fn}, and {@link
 * dev.caldera.api.extension.EventHandler}), which a plugin registers with {@link
 * dev.caldera.api.Extensions#add}. Each type's Javadoc is its contract: which actions call it, how
 * the answers of several plugins combine, which conf flag gates it, its threading rule and what
 * null means.
 */
@Export
@Version("1.3.0")
package dev.caldera.api.extension;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
