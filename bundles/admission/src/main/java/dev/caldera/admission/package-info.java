/**
 * What a real cluster does to pods before a scheduler sees them, shared by every cluster source
 * (the simulator and the Kubernetes source): Kubernetes' Priority admission fills {@code
 * spec.priority} and {@code spec.preemptionPolicy} from the PriorityClass; Volcano's pod group
 * controller gives every pod of the scheduler without a pod group an implicit one; Volcano's
 * controllers create the open {@code default} (and, for hierarchical capacity, {@code root}) queue.
 * Plain Java, no OSGi.
 *
 * <p>Where the sources differ on purpose, the difference is a parameter the caller passes (see
 * {@link dev.caldera.admission.ImplicitGroupNaming}).
 */
@Export
@Version("1.0.0")
package dev.caldera.admission;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
