package dev.caldera.runtime.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code caldera run} on a real cluster (issue 7): the kube bundle's configuration (PID {@value
 * #PID}) that replaces the embedded cluster's.
 *
 * @param kubeconfig the kubeconfig file, or null for the in-cluster service account
 * @param schedulerNames pods of these scheduler names are scheduled
 * @param leaderElect schedule only while holding the lease ({@code $POD_NAMESPACE}, else the
 *     connection's namespace, {@code caldera-scheduler})
 */
public record KubeRunOptions(Path kubeconfig, List<String> schedulerNames, boolean leaderElect) {

  /** The configuration PID of the kube bundle's cluster component. */
  public static final String PID = "dev.caldera.cluster.kube";

  public KubeRunOptions {
    schedulerNames = List.copyOf(schedulerNames);
  }

  /** The configuration properties. */
  Map<String, Object> properties() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("kubeconfig", kubeconfig == null ? "" : kubeconfig.toAbsolutePath().toString());
    p.put("scheduler.names", schedulerNames.toArray(String[]::new));
    p.put("leader.elect", leaderElect);
    String namespace = System.getenv("POD_NAMESPACE");
    if (namespace != null && !namespace.isBlank()) {
      p.put("lease.namespace", namespace);
    }
    return p;
  }

  /** For the start-up line. */
  String describe() {
    return "kubernetes "
        + (kubeconfig == null ? "(in-cluster)" : kubeconfig.toString())
        + ", scheduler names "
        + String.join(", ", schedulerNames)
        + (leaderElect ? ", leader election" : "");
  }
}
