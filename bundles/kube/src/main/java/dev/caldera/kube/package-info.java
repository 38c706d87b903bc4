/**
 * Caldera on a real Kubernetes cluster: {@link dev.caldera.kube.KubeCluster} is the cluster source
 * (informers) and writer (binds, evictions, statuses, events), {@link
 * dev.caldera.kube.LeaderElection} lets one of several replicas schedule, {@link
 * dev.caldera.kube.KubeRunner} is the scheduling loop and {@link dev.caldera.kube.KubeCounters}
 * what the admin bundle exposes as metrics. The fabric8 client is embedded in this bundle and
 * appears in no exported signature.
 */
@Export
@Version("2.0.0")
package dev.caldera.kube;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
