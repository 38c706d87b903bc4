package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.admin.internal.AdminBackend;
import dev.caldera.admin.internal.AdminServer;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.internal.loop.LoopFactory;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caldera why} and {@code caldera queues} against a real admin server in this process: the
 * scheduling loop runs one session of {@code why/card-queue.yaml} on the embedded cluster, the
 * admin server serves what the loop knows, and the commands print it for a person.
 */
class WhyAndQueuesCommandTest {

  @TempDir static Path tmp;

  private static LoopFactory.Running loop;
  private static AdminServer server;
  private static String url;

  @BeforeAll
  static void start() throws Exception {
    Path file = Path.of(WhyAndQueuesCommandTest.class.getResource("/why/card-queue.yaml").toURI());
    Scenario scenario = ScenarioLoader.load(file);
    // The scenario's conf: as the scheduler's conf file.
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    JsonNode conf = yaml.readTree(file.toFile()).path("conf");
    Path confFile = tmp.resolve("scheduler.conf");
    Files.writeString(confFile, yaml.writeValueAsString(conf));
    EmbeddedCluster cluster = scenario.cluster();
    loop =
        LoopFactory.start(
            new LoopFactory.Options(
                confFile,
                null,
                Duration.ofSeconds(1),
                null,
                1,
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
    Instant deadline = Instant.now().plusSeconds(30);
    while (loop.insight().lastSession() == null && Instant.now().isBefore(deadline)) {
      Thread.sleep(20);
    }
    assertThat(loop.insight().lastSession()).as("the loop's first session").isNotNull();
    server = new AdminServer(new InetSocketAddress("127.0.0.1", 0), null, backend(loop));
    url = "http://127.0.0.1:" + server.address().getPort();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (loop != null) {
      loop.stop();
    }
  }

  private static AdminBackend backend(LoopFactory.Running running) {
    return new LoopBackend(running) {
      @Override
      public Optional<QueueInsight> insight() {
        return Optional.of(running.insight());
      }
    };
  }

  @Test
  void why_printsThePlaceInLine_theReasonAndItsNumbers() {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "llm/chat-b")).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith(
            "llm/chat-b is 1st in queue serving; blocked at allocate: task chat-b-0: Queue"
                + " <serving> has insufficient <NVIDIA-L40S> quota: requested <2>, total would be <4>, but"
                + " capability is <2> (plugin capacity-card)\n")
        .contains("  NVIDIA-L40S: requested 2, allocated 2 of card quota 2\n")
        .contains("pods:\n  chat-b-0 Pending");
  }

  @Test
  void why_printsTimesToTheSecond() {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "llm/chat-b")).as(run.err()).isZero();
    assertThat(run.out())
        .containsPattern("last tried \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ[;\n]")
        .doesNotContainPattern("\\d\\d:\\d\\d:\\d\\d\\.\\d");
  }

  @Test
  void why_withOutputJson_printsTheApisAnswer_andAnotherFormatIsAUsageError() throws Exception {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "-o", "json", "llm/chat-b")).as(run.err()).isZero();
    JsonNode body = new ObjectMapper().readTree(run.out());
    assertThat(body.path("job").path("podGroup").asText()).isEqualTo("llm/chat-b");
    assertThat(body.path("job").path("waiting").path("position").asInt()).isEqualTo(1);

    CommandRun xml = new CommandRun();
    assertThat(xml.run("why", "--admin", url, "-o", "xml", "llm/chat-b")).isEqualTo(2);
    assertThat(xml.err()).contains("--output: expected text or json, got xml");
  }

  @Test
  void why_listsTheEvictionsThePodGroupSufferedAndCaused() throws Exception {
    JsonNode body =
        new ObjectMapper()
            .readTree(
                """
                {"job": {"podGroup": "ai/train", "queue": "q-batch", "phase": "Running",
                  "evictions": [
                    {"time": "2026-11-24T11:12:45.993123456Z", "pod": "ai/train-1",
                     "podGroup": "ai/train", "forPodGroup": "ai/db",
                     "message": "reclaim evicted ai/train-1 ...; rule tidal.policy:18 (any may reclaim training)"},
                    {"time": "2026-11-24T11:13:00Z", "pod": "ai/other-0",
                     "podGroup": "ai/other", "forPodGroup": "ai/train",
                     "message": "preempt evicted ai/other-0 ...; rule plugin priority"}]}}
                """);

    assertThat(WhyCommand.explain(body))
        .contains(
            "evictions:\n"
                + "  2026-11-24T11:12:45Z suffered: reclaim evicted ai/train-1 ...; rule"
                + " tidal.policy:18 (any may reclaim training)\n"
                + "  2026-11-24T11:13:00Z caused: preempt evicted ai/other-0 ...; rule plugin"
                + " priority\n");
  }

  @Test
  void why_saysWhatIsHeldForThePodGroup() throws Exception {
    JsonNode body =
        new ObjectMapper()
            .readTree(
                """
                {"job": {"podGroup": "inference/svc-7", "queue": "serving", "phase": "Inqueue",
                  "holding": ["holding 2 NVIDIA-H100 on node-3 for inference/svc-7 (freed by evictions for it) until it binds, or for 2 more sessions"]}}
                """);

    assertThat(WhyCommand.explain(body))
        .contains(
            "held for it:\n"
                + "  holding 2 NVIDIA-H100 on node-3 for inference/svc-7 (freed by evictions for"
                + " it) until it binds, or for 2 more sessions\n");
  }

  @Test
  void nodes_printsTheCardsPerModelWithEachQueuesQuota_andPerNodeWhoHoldsThem() {
    CommandRun run = new CommandRun();
    assertThat(run.run("nodes", "--admin", url)).as(run.err()).isZero();
    assertThat(run.out())
        .containsPattern("NVIDIA-L40S +whole +8 +2 +6  serving 2 / 2\n")
        .containsPattern("gpu-1 +NVIDIA-L40S +8 +2 +6  serving 2\n");

    CommandRun json = new CommandRun();
    assertThat(json.run("nodes", "--admin", url, "-o", "json")).as(json.err()).isZero();
    assertThat(json.out()).contains("\"inventory\" : 8.0", "\"neverFits\"");
  }

  @Test
  void why_ofAPodGroupOfAMissingQueue_saysTheQueueIsMissing() {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "ml/train")).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("ml/train is in no line; blocked: queue nosuch does not exist");
  }

  @Test
  void why_ofARunningPodGroup_saysItIsNotPending() {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "llm/chat-a")).as(run.err()).isZero();
    assertThat(run.out()).startsWith("llm/chat-a is not pending: phase Running in queue serving");
  }

  @Test
  void why_ofAnUnknownPodGroup_failsWithExitCode1() {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "llm/nosuch")).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("error: ").contains("llm/nosuch");
  }

  @Test
  void whyQuick_answersAsPicocliDoes_forEveryLineItTakes_andLeavesTheRest() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String nobody = "http://127.0.0.1:" + port;
    List<List<String>> taken =
        List.of(
            List.of("why", "--admin", url, "ml/train"),
            List.of("why", "ml/train", "--admin=" + url),
            List.of("why", "--admin", url, "-o", "json", "llm/chat-a"),
            List.of("why", "--output=json", "--admin", url, "llm/chat-a"),
            List.of("why", "--admin", url, "--output", "text", "llm/chat-a"),
            List.of("why", "--admin", url, "llm/nosuch"),
            List.of("why", "--admin", nobody, "llm/chat-b"));
    List<List<String>> left =
        List.of(
            List.of("why"),
            List.of("why", "--help"),
            List.of("why", "-h"),
            List.of("why", "--admin", url, "chat-b"),
            List.of("why", "--admin", url, "-o", "yaml", "llm/chat-a"),
            List.of("why", "--admin", url, "--stacktrace", "llm/chat-a"),
            List.of("why", "--admin", url, "--admin", url, "llm/chat-a"),
            List.of("why", "--admin", "-o", "json", "llm/chat-a"),
            List.of("why", "--admin", url, "llm/chat-a", "ml/train"),
            List.of("why", "--admin", url, "@args.txt"),
            List.of("why", "--admin", url, "-ojson", "llm/chat-a"),
            List.of("why", "--admin"),
            List.of("queues", "--admin", url));
    for (List<String> line : taken) {
      String[] args = line.toArray(String[]::new);
      CommandRun picocli = new CommandRun();
      int expected = picocli.run(args);
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
      java.util.OptionalInt code =
          WhyQuick.run(
              args,
              new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
              new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
      assertThat(code).as(String.join(" ", line)).hasValue(expected);
      assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
          .as(String.join(" ", line))
          .isEqualTo(picocli.out());
      assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
          .as(String.join(" ", line))
          .isEqualTo(picocli.err());
    }
    for (List<String> line : left) {
      java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
      java.io.PrintStream nowhere =
          new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
      assertThat(WhyQuick.run(line.toArray(String[]::new), nowhere, nowhere))
          .as(String.join(" ", line))
          .isEmpty();
      assertThat(printed.size()).as(String.join(" ", line)).isZero();
    }
  }

  @Test
  void why_withoutANamespace_isAUsageError() {
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", url, "chat-b")).isEqualTo(2);
    assertThat(run.err()).contains("expected NAMESPACE/NAME of a pod group, got chat-b");
  }

  @Test
  void whyAndQueues_whenTheSchedulerIsUnreachable_failWithExitCode1() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String nobody = "http://127.0.0.1:" + port;
    CommandRun run = new CommandRun();
    assertThat(run.run("why", "--admin", nobody, "llm/chat-b")).isEqualTo(1);
    assertThat(run.err())
        .startsWith("error: cannot reach the scheduler's admin API at " + nobody)
        .contains("is `caldera run` up?");
    run.reset();
    assertThat(run.run("queues", "--admin", nobody)).isEqualTo(1);
    assertThat(run.err()).startsWith("error: cannot reach the scheduler's admin API at " + nobody);
  }

  @Test
  void queues_printsTheTreeWithCardQuotas_andTheMissingQueuesPodGroups() {
    CommandRun run = new CommandRun();
    assertThat(run.run("queues", "--admin", url)).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0)).startsWith("QUEUE").contains("PENDING");
    assertThat(lines.get(1)).matches("serving +Open +1 +1  .*");
    assertThat(lines.get(2)).isEqualTo("  card quota: NVIDIA-L40S 2 / 2");
    assertThat(lines)
        .contains(
            "ml/train: queue nosuch does not exist: pod group ml/train is not" + " scheduled");
  }

  @Test
  void queues_printsEachCardModelsInventoryAgainstTheSumOfTheQuotas() {
    CommandRun run = new CommandRun();
    assertThat(run.run("queues", "--admin", url)).as(run.err()).isZero();
    assertThat(run.out())
        .containsPattern(
            "\nCARD +KIND +INVENTORY +QUOTAS +ALLOCATED  QUEUES \\(allocated / quota\\)\n")
        .containsPattern("\nNVIDIA-L40S +whole +8 +2 +2  serving 2 / 2\n");
  }

  @Test
  void queues_saysAGuaranteeOnACardResourceAboveTheInventory() throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode queues =
        json.readTree(
            """
            {"queues": [
              {"name": "training", "parent": "", "state": "Open", "weight": 1, "pending": 0,
               "guarantee": {"cpu": 10, "nvidia.com/gpu": 12}, "allocated": {}},
              {"name": "serving", "parent": "", "state": "Open", "weight": 1, "pending": 0,
               "guarantee": {"nvidia.com/gpu": 8}, "allocated": {}}]}
            """);
    JsonNode nodes =
        json.readTree(
            """
            {"cards": [], "nodes": [
              {"name": "gpu-1", "cards": [{"card": "NVIDIA-H100", "resource": "nvidia.com/gpu",
                "kind": "whole", "capacity": 8, "allocated": 0}]}]}
            """);

    String out = QueuesCommand.tree(queues, nodes);

    assertThat(out)
        .contains(
            "  guarantee above inventory (can never be met): nvidia.com/gpu guarantee 12 > 8 in"
                + " the cluster (NVIDIA-H100)\n");
    assertThat(out.lines().filter(l -> l.contains("guarantee above"))).hasSize(1);
  }

  @Test
  void queues_ofOneQueue_listsItsLineInOrder_andAnUnknownQueueFails() {
    CommandRun run = new CommandRun();
    assertThat(run.run("queues", "--admin", url, "serving")).as(run.err()).isZero();
    assertThat(run.out())
        .matches(
            "(?s)  1  llm/chat-b +Inqueue +blocked at allocate: task chat-b-0: Queue <serving> has"
                + " insufficient"
                + " <NVIDIA-L40S> quota.*\n");
    run.reset();
    assertThat(run.run("queues", "--admin", url, "nosuch")).isEqualTo(1);
    assertThat(run.err()).startsWith("error: ").contains("nosuch");
  }
}
