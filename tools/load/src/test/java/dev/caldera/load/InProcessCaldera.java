package dev.caldera.load;

import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.internal.loop.LoopFactory;
import dev.caldera.framework.loop.Health;
import dev.caldera.kube.KubeCluster;
import dev.caldera.kube.KubeOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Caldera in the test's process as the measured scheduler: the kube cluster source on the
 * kubeconfig and the scheduling loop of {@code caldera run} (sessions started by arrivals, after
 * the default debounce, and at the latest every period) with Volcano's default conf (plugins from
 * the class path), started when the run launches it. Its CPU is not read (it is the test's own
 * process).
 */
final class InProcessCaldera implements MeasuredScheduler {

  /** Volcano's period; arrivals start sessions sooner, so the tests do not wait for it. */
  static final Duration PERIOD = Duration.ofSeconds(1);

  /** {@code caldera run}'s default debounce. */
  static final Duration DEBOUNCE = Duration.ofMillis(5);

  private final Path kubeconfig;
  private KubeCluster cluster;
  private LoopFactory.Running loop;

  InProcessCaldera(Path kubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  /**
   * Schedules the cluster of the kubeconfig {@code args[0]} until the process is stopped: the
   * scheduler that the backlog test launches ({@code --launch 'java ... InProcessCaldera FILE'}).
   */
  public static void main(String[] args) throws Exception {
    InProcessCaldera caldera = new InProcessCaldera(Path.of(args[0]));
    Runtime.getRuntime().addShutdownHook(new Thread(caldera::stop));
    caldera.start();
    Thread.currentThread().join();
  }

  @Override
  public boolean launched() {
    return true;
  }

  @Override
  public synchronized void start() throws LoadException {
    try {
      cluster =
          KubeCluster.connect(
              KubeOptions.builder()
                  .kubeconfig(kubeconfig)
                  .identity("load-test")
                  .metricsInterval(Duration.ZERO)
                  // The mock server answers a streamed HTTP watch with 500; it serves WebSockets.
                  .httpWatches(false)
                  .build());
      if (!cluster.awaitSync(Duration.ofSeconds(60))) {
        throw new LoadException("Caldera's informers did not sync: " + cluster.unsynced());
      }
    } catch (IOException e) {
      throw new LoadException("cannot connect Caldera", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LoadException("interrupted", e);
    }
    try {
      Path conf = Files.createTempFile("caldera-load-test-", ".conf");
      Files.writeString(conf, SchedulerConf.DEFAULT_CONF);
      loop =
          LoopFactory.start(
              new LoopFactory.Options(
                  conf,
                  null,
                  PERIOD,
                  DEBOUNCE,
                  0,
                  Duration.ZERO,
                  null,
                  "text",
                  1 << 20,
                  1,
                  null,
                  false),
              new ServiceLoaderPluginRegistry(),
              cluster,
              cluster,
              () -> null,
              null);
    } catch (IOException e) {
      throw new LoadException("cannot start Caldera's scheduling loop", e);
    }
  }

  @Override
  public Optional<Duration> cpuTime() {
    return Optional.empty();
  }

  @Override
  public String describe() {
    return "Caldera in the test's process";
  }

  @Override
  public Path log() {
    return null;
  }

  @Override
  public String ended() {
    LoopFactory.Running l = loop;
    if (l == null) {
      return null;
    }
    Health h = l.monitor().health();
    return h.state().equals("failed") ? "failed: " + String.join("; ", h.reasons()) : null;
  }

  @Override
  public synchronized void stop() {
    if (loop != null) {
      loop.stop();
      loop = null;
    }
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }
}
