/**
 * The live scheduling loop as operators and tests see it: a {@link
 * dev.caldera.framework.loop.SchedulerMonitor} service reports health, recent sessions, events, the
 * conf and policies in force, and the figures behind the metrics. An optional {@link
 * dev.caldera.framework.loop.PolicyChecker} service lets the loop refuse a policy file with errors
 * and keep the last good version.
 */
@Export
@Version("1.6.0")
package dev.caldera.framework.loop;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
