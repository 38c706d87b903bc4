package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.admin.internal.AdminBackend;
import dev.caldera.admin.internal.AdminServer;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.Queue;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.internal.loop.LoopFactory;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caldera queue close|drain|open} against a real admin server in this process, on the
 * embedded cluster a scheduling loop runs: the command changes the queue's state, and the following
 * sessions carry it on as Volcano's queue controller would (Closing, then Closed once nothing runs;
 * a drain evicts what runs; open admits again).
 */
class QueueCommandTest {

  private static final String TOKEN = "s3cret";

  @TempDir Path tmp;

  private EmbeddedCluster cluster;
  private LoopFactory.Running loop;
  private AdminServer server;
  private String url;

  @BeforeEach
  void start() throws Exception {
    Path file = Path.of(QueueCommandTest.class.getResource("/queue/research.yaml").toURI());
    Scenario scenario = ScenarioLoader.load(file);
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    JsonNode conf = yaml.readTree(file.toFile()).path("conf");
    Path confFile = tmp.resolve("scheduler.conf");
    Files.writeString(confFile, yaml.writeValueAsString(conf));
    cluster =
        new EmbeddedCluster(scenario.objects(), scenario.nodeMetrics(), Map.of(), scenario.rules());
    loop =
        LoopFactory.start(
            new LoopFactory.Options(
                confFile,
                null,
                Duration.ofMillis(50),
                null,
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
            () -> {});
    server = new AdminServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, backend(loop, cluster));
    url = "http://127.0.0.1:" + server.address().getPort();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    if (loop != null) {
      loop.stop();
    }
  }

  private static AdminBackend backend(LoopFactory.Running running, EmbeddedCluster cluster) {
    return new LoopBackend(running) {
      @Override
      public Optional<QueueLifecycle.Outcome> queueCommand(
          String queue, QueueLifecycle.Command command) {
        return Optional.of(cluster.apply(queue, command));
      }
    };
  }

  private Queue research() {
    return cluster.state().queues().stream()
        .filter(q -> q.name().equals("research"))
        .findFirst()
        .orElseThrow();
  }

  private Optional<Pod> pod(String key) {
    return cluster.state().pods().stream().filter(p -> p.key().equals(key)).findFirst();
  }

  private long sessions() {
    return loop.monitor().health().sessions();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plusSeconds(30);
    while (!condition.getAsBoolean() && Instant.now().isBefore(deadline)) {
      Thread.sleep(20);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  @Test
  void queueClose_withoutTheToken_isRefused_andChangesNothing() {
    CommandRun run = new CommandRun();

    assertThat(run.run("queue", "close", "research", "--admin", url)).isEqualTo(1);

    assertThat(run.err())
        .startsWith("error: POST /api/queues/NAME/close needs the header Authorization");
    assertThat(research().state()).isEqualTo("Open");
  }

  @Test
  void queueDrain_evictsWhatRuns_closesTheQueue_andOpenAdmitsAgain() throws Exception {
    CommandRun run = new CommandRun();

    assertThat(run.run("queue", "drain", "research", "--admin", url, "--admin-token", TOKEN))
        .as(run.err())
        .isZero();
    assertThat(run.out()).startsWith("queue research: Closing");

    await("research Closed", () -> research().state().equals("Closed"));
    assertThat(pod("team/train-0")).isEmpty();
    assertThat(pod("team/train-1")).isEmpty();

    long now = sessions();
    await("two more sessions", () -> sessions() >= now + 2);
    assertThat(
            pod("team/late-0")
                .orElseThrow(
                    () ->
                        new AssertionError(
                            cluster.state().pods() + " " + loop.monitor().events(50)))
                .nodeName())
        .as("a Closed queue admits nothing")
        .isEmpty();

    run.reset();
    assertThat(run.run("queue", "open", "research", "--admin", url, "--admin-token", TOKEN))
        .as(run.err())
        .isZero();
    assertThat(run.out()).startsWith("queue research: Open");
    await(
        "late bound once research is Open",
        () -> !pod("team/late-0").orElseThrow().nodeName().isEmpty());
    assertThat(research().metadata().annotations())
        .doesNotContainKey(QueueLifecycle.DRAIN_ANNOTATION);
  }

  @Test
  void queueClose_letsTheRunningJobGoOn_andAnUnknownQueueFails() throws Exception {
    CommandRun run = new CommandRun();

    assertThat(run.run("queue", "close", "research", "--admin", url, "--admin-token", TOKEN))
        .as(run.err())
        .isZero();
    long now = sessions();
    await("two more sessions", () -> sessions() >= now + 2);

    assertThat(research().state()).isEqualTo("Closing");
    assertThat(pod("team/train-0")).isPresent();
    run.reset();
    assertThat(run.run("queue", "open", "nosuch", "--admin", url, "--admin-token", TOKEN))
        .isEqualTo(1);
    assertThat(run.err()).isEqualTo("error: queue nosuch does not exist\n");
  }

  @Test
  void queueCloseOrDrain_ofRoot_isRefusedWithOneClearError() {
    CommandRun run = new CommandRun();

    assertThat(run.run("queue", "drain", "root", "--admin", url, "--admin-token", TOKEN))
        .isEqualTo(1);

    assertThat(run.err())
        .isEqualTo(
            "error: queue root cannot be drained: every queue is under it; drain its child queues"
                + " instead\n");
    assertThat(research().state()).isEqualTo("Open");
  }
}
