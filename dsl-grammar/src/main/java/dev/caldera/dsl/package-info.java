/**
 * The policy language's compiler API: compile a {@code .policy} source into a {@link
 * dev.caldera.dsl.Policy} whose reclaim and preemptive rules become the scheduler's {@code
 * ReclaimableFn} and {@code PreemptiveFn}, or into the diagnostics that say what is wrong; and the
 * {@link dev.caldera.dsl.PolicyLibrary} that keeps the compiled policies of a scheduler, one per
 * framework (a service of this bundle in OSGi).
 */
@Export
@Version("1.2.0")
package dev.caldera.dsl;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
