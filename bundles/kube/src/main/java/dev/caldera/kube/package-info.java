/**
 * Caldera on a real Kubernetes cluster: {@link dev.caldera.kube.KubeCluster} is the cluster source
 * (informers) and writer (binds, evictions, statuses, events), {@link
 * dev.caldera.kube.LeaderElection} lets one of several replicas schedule, {@link
 * dev.caldera.kube.PluginBundles} installs plugin bundles named by {@code PluginBundle} objects and
 * {@link dev.caldera.kube.KubeCounters} is what the admin bundle exposes as metrics. The scheduling
 * loop is the framework's ({@code caldera run}). The fabric8 client is embedded in this bundle and
 * appears in no exported signature.
 *
 * <p>This package uses {@code dev.caldera.kube.internal}, which never uses it back.
 */
@Export
@Version("2.0.0")
package dev.caldera.kube;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
