/**
 * What a bundle offers the scheduler host as a service, apart from plugins: a {@link
 * dev.caldera.api.host.PolicyChecker} that the scheduling loop checks changed policy files with,
 * and {@link dev.caldera.api.host.MetricsSource}s whose figures the admin API adds to {@code
 * /metrics}. Here, beside the plugin contract, so that a plugin bundle can publish them without
 * importing the framework.
 */
@Export
@Version("1.0.0")
package dev.caldera.api.host;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
