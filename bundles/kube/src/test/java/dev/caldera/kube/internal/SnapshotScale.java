package dev.caldera.kube.internal;

import dev.caldera.framework.loop.ClusterExport;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Times {@code caldera snapshot} at scale (issue 20: 10k nodes / 100k pods): the objects an
 * informer cache would hold for such a cluster, as the API server sends them, written as a scenario
 * by the exporter {@code /api/snapshot} and {@code snapshot --kubeconfig} use. Not a test: run it
 * by hand (see docs/what-if.md).
 *
 * <p>{@code SnapshotScale NODES PODS OUT.yaml|OUT.json} (JSON when the name ends in .json): pods in
 * gangs of 4, three quarters running on the nodes, the rest pending; 8 queues.
 */
public final class SnapshotScale {

  private SnapshotScale() {}

  /** The conf the scenario carries (a scenario without one does not load). */
  static final String CONF =
      "actions: \"enqueue, allocate\"\n"
          + "tiers:\n"
          + "- plugins:\n"
          + "  - name: priority\n"
          + "  - name: gang\n"
          + "- plugins:\n"
          + "  - name: predicates\n"
          + "  - name: proportion\n";

  public static void main(String[] args) throws Exception {
    int nodes = Integer.parseInt(args[0]);
    int pods = Integer.parseInt(args[1]);
    Path out = Path.of(args[2]);
    Map<String, List<HasMetadata>> listed = cluster(nodes, pods);
    KubernetesSerialization serialization = new KubernetesSerialization();
    ScenarioExporter exporter =
        new ScenarioExporter(
            name -> listed.getOrDefault(name, List.of()),
            serialization,
            Set.of("volcano"),
            Map.of());
    boolean json = out.toString().endsWith(".json");
    ClusterExport.Request request =
        new ClusterExport.Request("scale", CONF, Map.of(), false, false, json);
    // One warm-up export (class loading, JIT), then the measured one.
    exporter.scenario(request, Instant.now());
    long start = System.nanoTime();
    String text = exporter.scenario(request, Instant.now());
    Files.writeString(out, text, StandardCharsets.UTF_8);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "snapshot of %d nodes, %d pods: %.2f s to write %s (%.1f MB)%n",
        nodes, pods, seconds, out, Files.size(out) / 1e6);
  }

  /** Informer name → the objects it would hold. */
  static Map<String, List<HasMetadata>> cluster(int nodes, int pods) {
    Map<String, List<HasMetadata>> listed = new HashMap<>();
    List<HasMetadata> nodeList = new ArrayList<>(nodes);
    for (int n = 0; n < nodes; n++) {
      nodeList.add(
          new NodeBuilder()
              .withNewMetadata()
              .withName(String.format("node-%05d", n))
              .addToLabels("topology.kubernetes.io/zone", "zone-" + (n % 3))
              .addToLabels("kubernetes.io/hostname", String.format("node-%05d", n))
              .endMetadata()
              .withNewStatus()
              .addToAllocatable("cpu", new Quantity("64"))
              .addToAllocatable("memory", new Quantity("256Gi"))
              .addToAllocatable("pods", new Quantity("110"))
              .endStatus()
              .build());
    }
    listed.put("nodes", nodeList);
    List<HasMetadata> queues = new ArrayList<>();
    for (int q = 0; q < 8; q++) {
      queues.add(
          new GenericKubernetesResourceBuilder()
              .withApiVersion("scheduling.volcano.sh/v1beta1")
              .withKind("Queue")
              .withNewMetadata()
              .withName("queue-" + q)
              .endMetadata()
              .addToAdditionalProperties("spec", Map.of("weight", 1 + q % 3))
              .addToAdditionalProperties("status", Map.of("state", "Open"))
              .build());
    }
    listed.put("queues", queues);
    List<HasMetadata> groups = new ArrayList<>();
    List<HasMetadata> podList = new ArrayList<>(pods);
    int gang = 4;
    for (int p = 0; p < pods; p++) {
      int job = p / gang;
      String group = String.format("job-%06d", job);
      boolean running = p < pods * 3 / 4;
      if (p % gang == 0) {
        groups.add(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(group)
                .withNamespace("bench")
                .endMetadata()
                .addToAdditionalProperties(
                    "spec", Map.of("queue", "queue-" + job % 8, "minMember", gang))
                .addToAdditionalProperties(
                    "status", Map.of("phase", running ? "Running" : "Inqueue"))
                .build());
      }
      podList.add(
          new PodBuilder()
              .withNewMetadata()
              .withName(String.format("%s-%d", group, p % gang))
              .withNamespace("bench")
              .addToAnnotations("scheduling.k8s.io/group-name", group)
              .addToLabels("app", "bench")
              .endMetadata()
              .withNewSpec()
              .withSchedulerName("volcano")
              .withNodeName(running ? String.format("node-%05d", p % nodes) : null)
              .addNewContainer()
              .withName("main")
              .withImage("registry.example/train:1")
              .withNewResources()
              .addToRequests("cpu", new Quantity("1"))
              .addToRequests("memory", new Quantity("2Gi"))
              .endResources()
              .endContainer()
              .endSpec()
              .withNewStatus()
              .withPhase(running ? "Running" : "Pending")
              .endStatus()
              .build());
    }
    listed.put("podgroups", groups);
    listed.put("pods", podList);
    return listed;
  }
}
