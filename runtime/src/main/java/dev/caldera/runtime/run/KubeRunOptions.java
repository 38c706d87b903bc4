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
 * @param apiQps the client's requests per second ({@code --kube-api-qps})
 * @param apiBurst the client's burst ({@code --kube-api-burst})
 * @param writeConcurrency writes in flight at once ({@code --kube-write-concurrency})
 * @param websocketWatches a WebSocket per watch ({@code --kube-websocket-watches}) instead of HTTP
 *     watches on the client's one HTTP/2 connection
 */
public record KubeRunOptions(
    Path kubeconfig,
    List<String> schedulerNames,
    boolean leaderElect,
    double apiQps,
    int apiBurst,
    int writeConcurrency,
    boolean websocketWatches) {

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
    p.put("api.qps", apiQps);
    p.put("api.burst", apiBurst);
    p.put("write.concurrency", writeConcurrency);
    p.put("http.watches", !websocketWatches);
    String namespace = System.getenv("POD_NAMESPACE");
    if (namespace != null && !namespace.isBlank()) {
      p.put("lease.namespace", namespace);
      p.put("plugin.bundles.namespace", namespace);
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
