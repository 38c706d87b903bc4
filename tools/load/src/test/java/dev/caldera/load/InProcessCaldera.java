package dev.caldera.load;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.kube.KubeCluster;
import dev.caldera.kube.KubeOptions;
import dev.caldera.kube.KubeRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Caldera in the test's process as the measured scheduler: the kube cluster source on the
 * kubeconfig and the scheduling loop with Volcano's default conf (plugins from the class path),
 * started when the run launches it. Its CPU is not read (it is the test's own process).
 */
final class InProcessCaldera implements MeasuredScheduler {

  /** Short, so that the tests do not wait for whole seconds between sessions. */
  static final Duration PERIOD = Duration.ofMillis(200);

  private final Path kubeconfig;
  private KubeCluster cluster;
  private KubeRunner runner;

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
    SchedulerConf conf;
    try {
      conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default conf");
    } catch (ConfException e) {
      throw new IllegalStateException(e);
    }
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
    runner =
        new KubeRunner(
            cluster,
            new Scheduler(new ServiceLoaderPluginRegistry()),
            () -> conf,
            PERIOD,
            () -> true);
    runner.start();
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
    KubeRunner r = runner;
    return r != null && r.failures() > 0 && r.sessions() == 0 ? "failed: " + r.lastError() : null;
  }

  @Override
  public synchronized void stop() {
    if (runner != null) {
      runner.close();
      runner = null;
    }
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }
}
