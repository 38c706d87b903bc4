package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.Blocker;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/caldera snapshot --kubeconfig} against the fabric8 mock API server (CRUD mode): the
 * distribution's kube bundle lists the cluster in a Felix of its own and prints a scenario that
 * {@code caldera simulate} runs unchanged, with what the cluster holds and nothing written to it.
 */
class SnapshotKubeconfigTest {

  private static final ResourceDefinitionContext QUEUES =
      new ResourceDefinitionContext.Builder()
          .withGroup("scheduling.volcano.sh")
          .withVersion("v1beta1")
          .withKind("Queue")
          .withPlural("queues")
          .withNamespaced(false)
          .build();

  private static final ResourceDefinitionContext POD_GROUPS =
      new ResourceDefinitionContext.Builder()
          .withGroup("scheduling.volcano.sh")
          .withVersion("v1beta1")
          .withKind("PodGroup")
          .withPlural("podgroups")
          .withNamespaced(true)
          .build();

  @TempDir Path tmp;

  private KubernetesMockServer server;
  private KubernetesClient kubectl;

  @BeforeEach
  void start() {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(server.url("/"))
            .withNamespace("default")
            .withHttp2Disable(true)
            .build();
    kubectl =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build();
  }

  @AfterEach
  void stop() {
    if (kubectl != null) {
      kubectl.close();
    }
    if (server != null) {
      server.destroy();
    }
  }

  private void node(String name) {
    kubectl
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("cpu", new Quantity("4"))
                .addToAllocatable("memory", new Quantity("16Gi"))
                .addToAllocatable("pods", new Quantity("110"))
                .endStatus()
                .build())
        .create();
  }

  private void pod(String name, String group, String cpu, String node) {
    kubectl
        .pods()
        .inNamespace("ml")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .addToAnnotations("scheduling.k8s.io/group-name", group)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("volcano")
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withNewResources()
                .addToRequests("cpu", new Quantity(cpu))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(node == null ? "Pending" : "Running")
                .endStatus()
                .build())
        .create();
  }

  private void podGroup(String name, String phase) {
    kubectl
        .genericKubernetesResources(POD_GROUPS)
        .inNamespace("ml")
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(name)
                .withNamespace("ml")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("queue", "team", "minMember", 1))
                .addToAdditionalProperties("status", Map.of("phase", phase))
                .build())
        .create();
  }

  @Test
  void snapshotOfTheMockCluster_replaysWithItsObjects_andThePendingJobsReason() throws Exception {
    node("n1");
    node("n2");
    kubectl
        .genericKubernetesResources(QUEUES)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName("team")
                .endMetadata()
                // The distribution's conf has capacity-card: no capability, no CPU.
                .addToAdditionalProperties(
                    "spec",
                    Map.of(
                        "weight",
                        1,
                        "reclaimable",
                        true,
                        "capability",
                        Map.of("cpu", "100", "memory", "400Gi")))
                .addToAdditionalProperties("status", Map.of("state", "Open"))
                .build())
        .create();
    podGroup("serve", "Running");
    pod("serve-0", "serve", "2", "n1");
    podGroup("huge", "Inqueue");
    pod("huge-0", "huge", "8", null);
    Path kubeconfig = MockKubeconfig.write(tmp.resolve("kubeconfig"), server.url("/"));

    Path out = tmp.resolve("cluster.yaml");
    Path err = tmp.resolve("err.txt");
    Path dir = Distribution.dir();
    List<String> command =
        new ArrayList<>(
            List.of(
                dir.resolve("bin/caldera").toString(),
                "snapshot",
                "--kubeconfig",
                kubeconfig.toString(),
                // fabric8's mock server streams watches over WebSockets only.
                "--kube-websocket-watches",
                "--timeout",
                "60s"));
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("caldera snapshot finished").isTrue();
    String errors = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(errors).isZero();

    Scenario snapshot = ScenarioLoader.load(out);
    assertThat(snapshot.objects().nodes())
        .extracting(n -> n.metadata().name())
        .containsExactly("n1", "n2");
    assertThat(snapshot.objects().queues()).extracting(q -> q.name()).contains("team");
    assertThat(snapshot.objects().podGroups())
        .extracting(pg -> pg.key())
        .containsExactlyInAnyOrder("ml/serve", "ml/huge");
    assertThat(snapshot.objects().pods())
        .extracting(pod -> pod.key() + "@" + pod.nodeName())
        .containsExactlyInAnyOrder("ml/serve-0@n1", "ml/huge-0@");
    // Nothing was written to the cluster: the pending pod is still unbound there.
    assertThat(kubectl.pods().inNamespace("ml").withName("huge-0").get().getSpec().getNodeName())
        .isNull();

    // The snapshot replays under the distribution's conf: the 8-CPU pod fits no 4-CPU node.
    ScenarioReport report = new ScenarioRunner(new ServiceLoaderPluginRegistry()).run(snapshot);
    List<SessionResult.Waiting> waiting = report.sessions().get(0).waiting();
    assertThat(report.sessions().get(0).binds()).isEmpty();
    assertThat(waiting).extracting(SessionResult.Waiting::podGroup).containsExactly("ml/huge");
    Blocker b = waiting.get(0).blocker();
    assertThat(b.stage()).as(b.message()).isEqualTo(Blocker.Stage.NODES);
    assertThat(b.message()).contains("0/2 nodes are unavailable");
  }
}
