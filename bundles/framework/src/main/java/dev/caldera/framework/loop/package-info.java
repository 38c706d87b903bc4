/**
 * The live scheduling loop as operators and tests see it: a {@link
 * dev.caldera.framework.loop.SchedulerMonitor} service reports health, recent sessions, events, the
 * conf and policies in force, and the figures behind the metrics. The loop uses an optional {@link
 * dev.caldera.api.host.PolicyChecker} service to refuse a policy file with errors and keep the last
 * good version.
 */
@Export
@Version("2.0.0")
package dev.caldera.framework.loop;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
