package dev.caldera.kube;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * How {@link KubeCluster} connects and writes. Built with {@link #builder()}; every field has the
 * default named on its builder method.
 *
 * @param kubeconfig the kubeconfig file, or null for the in-cluster service account (or {@code
 *     $KUBECONFIG}, {@code ~/.kube/config})
 * @param context the kubeconfig context, or null for its current context
 * @param schedulerNames pods whose {@code spec.schedulerName} is one of these are scheduled
 * @param identity this replica's name: the lease holder and the events' reporting instance
 * @param apiQps requests per second the client may send (Volcano's {@code --kube-api-qps})
 * @param apiBurst requests the client may send at once above that rate ({@code --kube-api-burst})
 * @param httpWatches watch over the client's one HTTP/2 connection, as client-go does; false: a
 *     WebSocket (its own TLS connection) per watch
 */
public record KubeOptions(
    Path kubeconfig,
    String context,
    List<String> schedulerNames,
    int writeConcurrency,
    int maxAttempts,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration metricsInterval,
    String reportingController,
    String identity,
    double apiQps,
    int apiBurst,
    boolean httpWatches) {

  /** Volcano's default for {@code --kube-api-qps}. */
  public static final double DEFAULT_API_QPS = 2000;

  /** Volcano's default for {@code --kube-api-burst}. */
  public static final int DEFAULT_API_BURST = 2000;

  /** Volcano's default scheduler name. */
  public static final String DEFAULT_SCHEDULER_NAME = "volcano";

  public KubeOptions {
    schedulerNames = List.copyOf(schedulerNames);
    if (schedulerNames.isEmpty()) {
      throw new IllegalArgumentException("at least one scheduler name is needed");
    }
    if (writeConcurrency < 1) {
      throw new IllegalArgumentException(
          "writeConcurrency must be at least 1: " + writeConcurrency);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(metricsInterval, "metricsInterval");
    Objects.requireNonNull(reportingController, "reportingController");
    Objects.requireNonNull(identity, "identity");
    if (!(apiQps > 0) || Double.isInfinite(apiQps)) {
      throw new IllegalArgumentException("kube-api-qps must be a positive number: " + apiQps);
    }
    if (apiBurst < 1) {
      throw new IllegalArgumentException("kube-api-burst must be at least 1: " + apiBurst);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A replica name as client-go makes one: {@code $POD_NAME} (set from the downward API in the
   * Deployment) or the host name, plus a random suffix so that a restarted process is a new holder.
   */
  public static String defaultIdentity() {
    String base = System.getenv("POD_NAME");
    if (base == null || base.isBlank()) {
      try {
        base = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        base = "caldera";
      }
    }
    return base + "_" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Builds {@link KubeOptions}. */
  public static final class Builder {
    private Path kubeconfig;
    private String context;
    private final List<String> schedulerNames = new ArrayList<>();
    private int writeConcurrency = 64;
    private int maxAttempts = 5;
    private Duration initialBackoff = Duration.ofMillis(100);
    private Duration maxBackoff = Duration.ofSeconds(10);
    private Duration metricsInterval = Duration.ofSeconds(30);
    private String reportingController = "caldera.dev/scheduler";
    private String identity;
    private double apiQps = DEFAULT_API_QPS;
    private int apiBurst = DEFAULT_API_BURST;
    private boolean httpWatches = true;

    private Builder() {}

    /**
     * Whether watches are plain HTTP requests on the client's one HTTP/2 connection (default) or a
     * WebSocket each. fabric8's default, a WebSocket, is an HTTP/1.1 connection with a TLS
     * handshake of its own per watched kind: a dozen at start, each paid for on a cold JVM (issue
     * 12). False for a server or proxy that does not stream HTTP watches (fabric8's mock server).
     */
    public Builder httpWatches(boolean http) {
      this.httpWatches = http;
      return this;
    }

    /**
     * The client's request rate: {@code qps} per second, bursts of {@code burst}; default {@value
     * #DEFAULT_API_QPS} and {@value #DEFAULT_API_BURST}, Volcano's.
     */
    public Builder apiRate(double qps, int burst) {
      this.apiQps = qps;
      this.apiBurst = burst;
      return this;
    }

    /** The kubeconfig file; default none (in-cluster or the usual places). */
    public Builder kubeconfig(Path file) {
      this.kubeconfig = file;
      return this;
    }

    /** The kubeconfig context; default its current context. */
    public Builder context(String context) {
      this.context = context;
      return this;
    }

    /** Adds a scheduler name; default {@value #DEFAULT_SCHEDULER_NAME} when none is added. */
    public Builder schedulerName(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a scheduler name must not be empty");
      }
      schedulerNames.add(name);
      return this;
    }

    /**
     * Writes running at once; default 64: an API server answers a bind in tens of milliseconds, so
     * fewer in flight leave it idle (185 binds/s with 16, 236 with 64 on a loopback server).
     */
    public Builder writeConcurrency(int n) {
      this.writeConcurrency = n;
      return this;
    }

    /** Attempts per write on transient errors; default 5. */
    public Builder maxAttempts(int n) {
      this.maxAttempts = n;
      return this;
    }

    /** Backoff before the second attempt, doubling up to {@code max}; default 100 ms, 10 s. */
    public Builder backoff(Duration initial, Duration max) {
      this.initialBackoff = initial;
      this.maxBackoff = max;
      return this;
    }

    /** How often node metrics are read; default 30 s (Volcano's), zero turns reading off. */
    public Builder metricsInterval(Duration interval) {
      this.metricsInterval = interval;
      return this;
    }

    /** The events' reporting controller; default {@code caldera.dev/scheduler}. */
    public Builder reportingController(String name) {
      this.reportingController = name;
      return this;
    }

    /** This replica's identity; default {@link #defaultIdentity()}. */
    public Builder identity(String identity) {
      this.identity = identity;
      return this;
    }

    public KubeOptions build() {
      List<String> names =
          schedulerNames.isEmpty() ? List.of(DEFAULT_SCHEDULER_NAME) : List.copyOf(schedulerNames);
      return new KubeOptions(
          kubeconfig,
          context,
          names,
          writeConcurrency,
          maxAttempts,
          initialBackoff,
          maxBackoff,
          metricsInterval,
          reportingController,
          identity == null ? defaultIdentity() : identity,
          apiQps,
          apiBurst,
          httpWatches);
    }
  }
}
