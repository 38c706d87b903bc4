package dev.caldera.plugins.usage;

import dev.caldera.api.GoDuration;
import dev.caldera.api.PluginArguments;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

/**
 * Where the {@code usage} plugin reads node usage: the cluster's metrics (metrics-server, or a
 * scenario's {@code nodeMetrics}) by default, or a Prometheus server:
 *
 * <pre>
 * arguments:
 *   usage.metrics.type: prometheus
 *   usage.metrics.address: http://prometheus.monitoring:9090
 *   usage.metrics.timeout: 2s
 * </pre>
 *
 * @param address the Prometheus server, or null for the cluster's metrics
 * @param timeout how long one session waits for Prometheus, default {@link #DEFAULT_TIMEOUT}
 */
record UsageMetricsArguments(URI address, Duration timeout) {

  static final String TYPE = "usage.metrics.type";
  static final String ADDRESS = "usage.metrics.address";
  static final String TIMEOUT = "usage.metrics.timeout";

  /** The values of {@value #TYPE}. */
  enum Type {
    PROMETHEUS("prometheus"),
    METRICS_SERVER("metrics-server");

    final String text;

    Type(String text) {
      this.text = text;
    }
  }

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  /** The cluster's metrics. */
  static final UsageMetricsArguments CLUSTER = new UsageMetricsArguments(null, DEFAULT_TIMEOUT);

  /** Whether usage comes from Prometheus. */
  boolean prometheus() {
    return address != null;
  }

  /**
   * Reads and validates the keys; a wrong value names its key and what was expected.
   *
   * @throws dev.caldera.api.PluginArgumentException for an unknown type, a Prometheus type without
   *     an address, an address that is not an http(s) URL or a timeout that is not a positive
   *     duration
   */
  static UsageMetricsArguments from(PluginArguments args) {
    String type = args.getString(TYPE, null);
    String address = args.getString(ADDRESS, null);
    String prometheus = Type.PROMETHEUS.text;
    String metricsServer = Type.METRICS_SERVER.text;
    if (type != null && !type.equals(prometheus) && !type.equals(metricsServer)) {
      throw args.wrong(TYPE, type, prometheus + " or " + metricsServer);
    }
    Duration timeout = timeout(args);
    if (metricsServer.equals(type) || (type == null && address == null)) {
      if (address != null) {
        throw args.wrong(ADDRESS, address, "no address with " + TYPE + ": " + metricsServer);
      }
      return new UsageMetricsArguments(null, timeout);
    }
    if (address == null || address.isBlank()) {
      throw args.wrong(
          ADDRESS, address, "the Prometheus server's URL, e.g. http://prometheus:9090");
    }
    return new UsageMetricsArguments(url(args, address.trim()), timeout);
  }

  private static URI url(PluginArguments args, String text) {
    String expected = "an http or https URL such as http://prometheus:9090";
    try {
      URI uri = new URI(text);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getQuery() != null
          || uri.getFragment() != null) {
        throw args.wrong(ADDRESS, text, expected);
      }
      return uri;
    } catch (URISyntaxException e) {
      throw args.wrong(ADDRESS, text, expected);
    }
  }

  private static Duration timeout(PluginArguments args) {
    String text = args.getString(TIMEOUT, null);
    if (text == null) {
      return DEFAULT_TIMEOUT;
    }
    String expected = "a positive duration such as 2s or 500ms";
    try {
      Duration d = GoDuration.parse(text.trim());
      if (d.isNegative() || d.isZero()) {
        throw args.wrong(TIMEOUT, text, expected);
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw args.wrong(TIMEOUT, text, expected);
    }
  }
}
