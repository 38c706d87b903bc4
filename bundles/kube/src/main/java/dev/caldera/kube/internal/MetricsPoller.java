package dev.caldera.kube.internal;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.resource.Quantity;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.NodeMetricsList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads node usage from the metrics API ({@code metrics.k8s.io/v1beta1}, metrics-server) for the
 * usage plugin: CPU and memory in percent of the node's allocatable, with the sample's timestamp.
 * When the API is not served the poller says so once and keeps the map empty (the usage plugin then
 * treats every node as without fresh metrics).
 */
public final class MetricsPoller {

  private static final System.Logger LOG = System.getLogger(MetricsPoller.class.getName());
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private final KubernetesClient client;
  private final ClusterCache cache;
  private volatile boolean served = true;

  public MetricsPoller(KubernetesClient client, ClusterCache cache) {
    this.client = client;
    this.cache = cache;
  }

  /** Whether the last poll found the metrics API. */
  public boolean served() {
    return served;
  }

  /** The warning for a failed read: the HTTP status and reason, or what the connection did. */
  static String failure(RuntimeException e) {
    return "reading node metrics failed: " + ApiErrors.describe(e);
  }

  /** Reads the metrics once; never throws. */
  public void poll() {
    NodeMetricsList list;
    try {
      list = client.top().nodes().metrics();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 503) {
        if (served) {
          LOG.log(Level.INFO, "metrics.k8s.io is not served; the usage plugin gets no metrics");
        }
        served = false;
        cache.setMetrics(Map.of());
      } else {
        LOG.log(Level.WARNING, () -> failure(e));
      }
      return;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, () -> failure(e));
      return;
    }
    served = true;
    Map<String, NodeMetrics> out = new LinkedHashMap<>();
    for (io.fabric8.kubernetes.api.model.metrics.v1beta1.NodeMetrics m : list.getItems()) {
      String name = m.getMetadata() == null ? null : m.getMetadata().getName();
      Node node = name == null ? null : cache.node(name);
      if (node == null || m.getUsage() == null) {
        continue;
      }
      Instant at = Meta.time(m.getTimestamp());
      out.put(
          name,
          new NodeMetrics(
              percent(m.getUsage().get("cpu"), node.allocatable().get("cpu")),
              percent(m.getUsage().get("memory"), node.allocatable().get("memory")),
              at == null ? Instant.now() : at));
    }
    cache.setMetrics(out);
  }

  static double percent(io.fabric8.kubernetes.api.model.Quantity used, Quantity allocatable) {
    Quantity u = used == null ? null : Meta.quantity(used.toString());
    if (u == null || allocatable == null || allocatable.amount().signum() <= 0) {
      return 0;
    }
    return u.amount()
        .multiply(HUNDRED)
        .divide(allocatable.amount(), MathContext.DECIMAL64)
        .doubleValue();
  }
}
