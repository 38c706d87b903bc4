package dev.caldera.runtime.run;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@code caldera run} was asked to do.
 *
 * @param home the distribution: {@code bundles/} holds the bundles installed at start
 * @param cluster the manifests the embedded cluster is seeded from
 * @param workload whether the embedded cluster gets a generated workload
 * @param deploy the watched directory of plugin bundles
 * @param sessionDebounce how long after work arrived a session starts; null for every period only
 * @param adminAddress null for no admin HTTP server
 * @param adminToken null when bundle installs over HTTP are disabled
 * @param probeAddress null for no listener of the probes' own
 * @param allowedHosts {@code Host} names the admin server answers beyond IP addresses, localhost
 *     and this host's names
 * @param duration null to run until stopped
 * @param statusInterval zero for no status lines
 * @param logFile null for no log file
 * @param logFormat {@code text} or {@code json}
 * @param logMaxBytes the log file's size at which it is rotated
 * @param logKeep how many rotated log files are kept
 */
public record RunOptions(
    Path home,
    Path conf,
    Path policies,
    Path cluster,
    boolean workload,
    Path deploy,
    Duration schedulePeriod,
    Duration sessionDebounce,
    InetSocketAddress adminAddress,
    String adminToken,
    InetSocketAddress probeAddress,
    List<String> allowedHosts,
    boolean shell,
    Duration duration,
    Duration statusInterval,
    Path logFile,
    String logFormat,
    long logMaxBytes,
    int logKeep,
    boolean echoSessions) {

  /** Where the distribution's bundles are. */
  public Path bundles() {
    return home.resolve("bundles");
  }
}
