package dev.caldera.runtime.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in, like bundles/kube's RealClusterTest: with {@code CALDERA_TEST_KUBECONFIG} naming an API
 * server (admin rights), two replicas of the amd64 image run as the shipped Deployment runs them,
 * the way a kubelet would start its pods: the Deployment's arguments and environment, the
 * ConfigMap's files where its volume puts them, the service account's token, CA and namespace where
 * Kubernetes mounts them, {@code KUBERNETES_SERVICE_HOST/PORT}, and the image's entrypoint as user
 * 10001 in its own root file system ({@link ContainerRun}). Two things differ, both visible below:
 * the scheduler name is a new one per run (the Deployment's {@code CALDERA_SCHEDULER_NAME}, so no
 * other scheduler takes the test's pods) and the admin API listens on a free port instead of 8080.
 * Needs kubectl, root, unshare, and an amd64 machine or qemu-x86_64-static; skipped otherwise,
 * saying which.
 */
class ImageAsAPodIT {

  private static final Path DEPLOY = Path.of("deploy");
  private static final String SYSTEM_NS = "caldera-system";
  private static final String SERVICE_ACCOUNT_DIR = "var/run/secrets/kubernetes.io/serviceaccount";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @TempDir Path work;

  private final String run = UUID.randomUUID().toString().substring(0, 6);
  private final String ns = "caldera-image-e2e-" + run;
  private final String schedulerName = "caldera-image-e2e-" + run;
  private final String podName = "caldera-scheduler-image-e2e-" + run;
  private final List<String> nodes = List.of(ns + "-a", ns + "-b");
  private Kubectl kubectl;

  /** One replica of the Deployment: its own root file system, admin port, process and output. */
  private record Replica(String name, int adminPort, Process process, Path outputFile) {

    URI admin(String path) {
      return URI.create("http://127.0.0.1:" + adminPort + path);
    }

    String output() throws IOException {
      return Files.readString(outputFile);
    }

    /** What a kubelet does to stop the container: SIGTERM to its first process, the JVM here. */
    int stop() throws Exception {
      process.toHandle().children().findFirst().orElseThrow().destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(name + " stopped within 60 s").isTrue();
      return process.exitValue();
    }

    void kill() {
      process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  @Test
  void twoReplicasOfTheImage_oneLeadsAndBinds_theOtherTakesOverWhenItIsStopped() throws Exception {
    String kubeconfig = System.getenv("CALDERA_TEST_KUBECONFIG");
    assumeTrue(
        kubeconfig != null && !kubeconfig.isBlank(),
        "CALDERA_TEST_KUBECONFIG names no API server (docs/kubernetes.md, the opt-in real-cluster suite)");
    String unavailable = ContainerRun.unavailable("amd64");
    assumeTrue(unavailable == null, unavailable);
    assumeTrue(
        ContainerRun.succeeds(List.of("kubectl", "version", "--client")), "kubectl not found");
    Path tarball = Path.of("target/caldera-image-amd64.tar");
    assumeTrue(
        Files.isRegularFile(tarball),
        "the amd64 image was not built (docs/kubernetes.md, The image)");
    kubectl = new Kubectl(kubeconfig);

    installWithoutTheDeployment();
    JsonNode lease = kubectl.jsonOrNull("-n", SYSTEM_NS, "get", "lease", "caldera-scheduler");
    assumeTrue(
        lease == null || !heldNow(lease.path("spec")),
        "the lease caldera-system/caldera-scheduler is held by "
            + (lease == null ? "" : lease.path("spec").path("holderIdentity").asText()));

    OciImageTarball image = OciImageTarball.open(tarball, work.resolve("tarball"));
    HttpClient http = HttpClient.newHttpClient();
    List<Replica> replicas = new ArrayList<>();
    try {
      Replica first = start(image, podName + "-a");
      replicas.add(first);
      awaitState(http, first, "running");
      Replica second = start(image, podName + "-b");
      replicas.add(second);
      awaitState(http, second, "standby");
      assertThat(get(http, second.admin("/metrics"))).contains("caldera_leader 0.0");

      createGang();
      await(
          "the gang bound to the test's nodes",
          () -> bound(List.of("gang-0", "gang-1", "gang-2")),
          first);
      assertThat(get(http, first.admin("/metrics")))
          .contains("caldera_leader 1.0", "caldera_binds_total 3.0");
      assertThat(kubectl.json("-n", ns, "get", "events").path("items").findValuesAsText("reason"))
          .contains("Scheduled");
      assertThat(lease().path("holderIdentity").asText()).startsWith(first.name());

      assertThat(first.stop()).as(first.output()).isZero();
      assertThat(first.output())
          .contains("SchedulerStopped: after", "sessions: 3 binds, 0 evictions");
      // The lease was handed back (a 1 s duration), so the standby takes over at once.
      awaitState(http, second, "running");
      assertThat(lease().path("holderIdentity").asText()).startsWith(second.name());
      createPod("solo", 1);
      await("the new pod bound by the new leader", () -> bound(List.of("solo-0")), second);
      assertThat(get(http, second.admin("/metrics")))
          .contains("caldera_leader 1.0", "caldera_binds_total 1.0");

      assertThat(second.stop()).as(second.output()).isZero();
      assertThat(lease().path("leaseDurationSeconds").asInt())
          .as("the lease handed back again")
          .isEqualTo(1);
    } finally {
      replicas.forEach(Replica::kill);
      cleanUp();
    }
  }

  /** A replica of the Deployment's pod, started as a kubelet would start it. */
  private Replica start(OciImageTarball image, String name) throws Exception {
    JsonNode deployment = YAML.readTree(DEPLOY.resolve("base/deployment.yaml").toFile());
    JsonNode podSpec = deployment.path("spec").path("template").path("spec");
    JsonNode container = podSpec.path("containers").path(0);
    ContainerRun pod = podRoot(image, podSpec, container, work.resolve(name));
    int adminPort = freePort();
    Map<String, String> env = environment(image, container, name);
    List<String> command = new ArrayList<>();
    image.config.path("config").path("Entrypoint").forEach(a -> command.add(a.asText()));
    for (JsonNode arg : container.path("args")) {
      String expanded = expand(arg.asText(), env);
      if (expanded.startsWith("--admin-address=")) {
        command.add("--admin-address=127.0.0.1:" + adminPort);
      } else if (expanded.startsWith("--probe-address=")) {
        command.add("--probe-address=127.0.0.1:0"); // two replicas on one host
      } else {
        command.add(expanded);
      }
    }
    Path output = work.resolve(name + ".log");
    Process process = pod.builder(env, command).redirectOutput(output.toFile()).start();
    return new Replica(name, adminPort, process, output);
  }

  /** Waits until {@code replica}'s /readyz reports {@code state}. */
  private static void awaitState(HttpClient http, Replica replica, String state)
      throws IOException, InterruptedException {
    await(
        "/readyz of " + replica.name() + " says " + state,
        () -> {
          String body = get(http, replica.admin("/readyz"));
          return body != null && body.contains("\"state\" : \"" + state + "\"");
        },
        replica);
  }

  /** The spec of the Lease the replicas compete for. */
  private JsonNode lease() throws IOException, InterruptedException {
    return kubectl.json("-n", SYSTEM_NS, "get", "lease", "caldera-scheduler").path("spec");
  }

  /** The CRDs and the base's namespace, RBAC and ConfigMap, as `kubectl apply` installs them. */
  private void installWithoutTheDeployment() throws IOException, InterruptedException {
    kubectl.run("apply", "-k", DEPLOY.resolve("crds").toString());
    kubectl.run("apply", "-k", DEPLOY.resolve("caldera-crds").toString());
    kubectl.run(
        "wait",
        "--for=condition=Established",
        "--timeout=60s",
        "crd/podgroups.scheduling.volcano.sh",
        "crd/queues.scheduling.volcano.sh",
        "crd/pluginbundles.caldera.dev");
    kubectl.run(
        "apply",
        "-f",
        DEPLOY.resolve("base/namespace.yaml").toString(),
        "-f",
        DEPLOY.resolve("base/rbac.yaml").toString(),
        "-f",
        DEPLOY.resolve("base/config.yaml").toString());
  }

  private static boolean heldNow(JsonNode lease) {
    if (lease.path("holderIdentity").asText().isEmpty() || !lease.hasNonNull("renewTime")) {
      return false;
    }
    Instant renewed = Instant.parse(lease.path("renewTime").asText());
    long seconds = lease.path("leaseDurationSeconds").asLong(15);
    return renewed.plusSeconds(seconds).isAfter(Instant.now());
  }

  /**
   * The image's layers, with what Kubernetes adds to the pod's file system: the ConfigMap's items
   * where the Deployment's volume mounts them, the writable log volume, and the service account.
   */
  private ContainerRun podRoot(OciImageTarball image, JsonNode pod, JsonNode container, Path dir)
      throws IOException, InterruptedException {
    ContainerRun run = ContainerRun.unpack(image, dir);
    Path root = run.root();
    Map<String, JsonNode> volumes = new TreeMap<>();
    pod.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
    for (JsonNode mount : container.path("volumeMounts")) {
      Path at =
          Files.createDirectories(root.resolve(mount.path("mountPath").asText().substring(1)));
      JsonNode volume = volumes.get(mount.path("name").asText());
      if (volume.has("configMap")) {
        JsonNode data =
            kubectl
                .json(
                    "-n",
                    SYSTEM_NS,
                    "get",
                    "configmap",
                    volume.path("configMap").path("name").asText())
                .path("data");
        for (JsonNode item : volume.path("configMap").path("items")) {
          Path file = at.resolve(item.path("path").asText());
          Files.createDirectories(file.getParent());
          Files.writeString(file, data.path(item.path("key").asText()).asText());
        }
      } else {
        Files.setAttribute(at, "unix:uid", 10001); // an emptyDir of the pod's fsGroup
        Files.setAttribute(at, "unix:gid", 10001);
      }
    }
    Path sa = Files.createDirectories(root.resolve(SERVICE_ACCOUNT_DIR));
    Files.writeString(
        sa.resolve("token"),
        kubectl
            .run("-n", SYSTEM_NS, "create", "token", "caldera-scheduler", "--duration=1h")
            .trim());
    Files.write(sa.resolve("ca.crt"), kubectl.certificateAuthority());
    Files.writeString(sa.resolve("namespace"), SYSTEM_NS);
    return run;
  }

  /** The image's environment, then the container's: what a kubelet gives the entrypoint. */
  private Map<String, String> environment(OciImageTarball image, JsonNode container, String podName)
      throws IOException, InterruptedException {
    Map<String, String> env = new TreeMap<>(image.environment());
    URI server = URI.create(kubectl.server());
    env.put("KUBERNETES_SERVICE_HOST", server.getHost());
    env.put("KUBERNETES_SERVICE_PORT", String.valueOf(server.getPort()));
    for (JsonNode var : container.path("env")) {
      String name = var.path("name").asText();
      String field = var.path("valueFrom").path("fieldRef").path("fieldPath").asText();
      if (var.has("value")) {
        env.put(name, var.path("value").asText());
      } else if (field.equals("metadata.name")) {
        env.put(name, podName);
      } else if (field.equals("metadata.namespace")) {
        env.put(name, SYSTEM_NS);
      } // an optional Secret's key that does not exist: no variable
    }
    assertThat(env).containsKey("CALDERA_SCHEDULER_NAME");
    env.put("CALDERA_SCHEDULER_NAME", schedulerName);
    return env;
  }

  /** Kubernetes' $(VAR) expansion of container arguments. */
  private static String expand(String arg, Map<String, String> env) {
    Matcher m = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)").matcher(arg);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(env.getOrDefault(m.group(1), m.group())));
    }
    return m.appendTail(out).toString();
  }

  /** The test's namespace, queue and two nodes, and a gang of three pending pods. */
  private void createGang() throws IOException, InterruptedException {
    StringBuilder yaml = new StringBuilder();
    yaml.append(
        """
        apiVersion: v1
        kind: Namespace
        metadata: {name: %s}
        ---
        apiVersion: v1
        kind: ServiceAccount
        metadata: {name: default, namespace: %s}
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: Queue
        metadata: {name: %s}
        spec: {weight: 1}
        """
            .formatted(ns, ns, ns));
    for (String node : nodes) {
      yaml.append(
          """
          ---
          apiVersion: v1
          kind: Node
          metadata: {name: %s, labels: {caldera-image-e2e: "%s"}}
          status:
            capacity: {cpu: "4", memory: 8Gi, pods: "110"}
            allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
          """
              .formatted(node, run));
    }
    kubectl.applyStdin(yaml.toString());
    createPod("gang", 3);
  }

  /** A pod group of {@code size} and its pods {@code group-0...}, each asking for 2 CPUs. */
  private void createPod(String group, int size) throws IOException, InterruptedException {
    StringBuilder yaml =
        new StringBuilder(
            """
            apiVersion: scheduling.volcano.sh/v1beta1
            kind: PodGroup
            metadata: {name: %s, namespace: %s}
            spec: {minMember: %d, queue: %s}
            """
                .formatted(group, ns, size, ns));
    for (int i = 0; i < size; i++) {
      // Tolerations: a node without a kubelet is tainted not-ready (at creation, or by a
      // controller manager's node lifecycle controller).
      yaml.append(
          """
          ---
          apiVersion: v1
          kind: Pod
          metadata:
            name: %s-%d
            namespace: %s
            annotations: {scheduling.k8s.io/group-name: %s}
          spec:
            schedulerName: %s
            nodeSelector: {caldera-image-e2e: "%s"}
            tolerations:
            - {key: node.kubernetes.io/not-ready, operator: Exists}
            - {key: node.kubernetes.io/unreachable, operator: Exists}
            containers:
            - {name: c, image: busybox, resources: {requests: {cpu: "2", memory: 1Gi}}}
          """
              .formatted(group, i, ns, group, schedulerName, run));
    }
    kubectl.applyStdin(yaml.toString());
  }

  /** Whether every one of {@code pods} is bound to one of the test's nodes. */
  private boolean bound(List<String> pods) {
    try {
      for (String pod : pods) {
        String node =
            kubectl.json("-n", ns, "get", "pod", pod).path("spec").path("nodeName").asText();
        if (!nodes.contains(node)) {
          return false;
        }
      }
      return true;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private void cleanUp() {
    try {
      if (kubectl == null) {
        return;
      }
      kubectl.quietly("-n", ns, "delete", "pods", "--all", "--grace-period=0", "--force");
      kubectl.quietly("-n", ns, "delete", "podgroups", "--all");
      kubectl.quietly("delete", "namespace", ns, "--wait=false");
      kubectl.quietly("delete", "queue", ns);
      for (String node : nodes) {
        kubectl.quietly("delete", "node", node);
      }
    } catch (IOException | InterruptedException e) {
      // Best effort: every run uses new names.
    }
  }

  private static void await(String what, BooleanSupplier condition, Replica replica)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            what + ": not within 90 s; the output of " + replica.name() + ":\n" + replica.output());
      }
      Thread.sleep(500);
    }
  }

  private static String get(HttpClient http, URI uri) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? r.body() : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** kubectl with the test's kubeconfig. */
  private record Kubectl(String kubeconfig) {

    String run(String... args) throws IOException, InterruptedException {
      return succeeding(null, args);
    }

    void applyStdin(String yaml) throws IOException, InterruptedException {
      succeeding(yaml, "apply", "-f", "-");
    }

    private String succeeding(String stdin, String... args)
        throws IOException, InterruptedException {
      Result r = exec(stdin, args);
      if (r.exit != 0) {
        throw new AssertionError("kubectl " + String.join(" ", args) + ": " + r.output);
      }
      return r.output;
    }

    void quietly(String... args) throws IOException, InterruptedException {
      exec(null, args);
    }

    JsonNode json(String... args) throws IOException, InterruptedException {
      List<String> all = new ArrayList<>(List.of(args));
      all.addAll(List.of("-o", "json"));
      return JSON.readTree(run(all.toArray(String[]::new)));
    }

    JsonNode jsonOrNull(String... args) throws IOException, InterruptedException {
      List<String> all = new ArrayList<>(List.of(args));
      all.addAll(List.of("-o", "json", "--ignore-not-found"));
      String out = run(all.toArray(String[]::new));
      return out.isBlank() ? null : JSON.readTree(out);
    }

    private JsonNode cluster() throws IOException, InterruptedException {
      return JSON.readTree(run("config", "view", "--raw", "--minify", "-o", "json"))
          .path("clusters")
          .path(0)
          .path("cluster");
    }

    String server() throws IOException, InterruptedException {
      return cluster().path("server").asText();
    }

    byte[] certificateAuthority() throws IOException, InterruptedException {
      JsonNode cluster = cluster();
      if (cluster.hasNonNull("certificate-authority-data")) {
        return Base64.getDecoder().decode(cluster.path("certificate-authority-data").asText());
      }
      Path file = Path.of(cluster.path("certificate-authority").asText());
      if (!file.isAbsolute()) {
        file = Path.of(kubeconfig).toAbsolutePath().getParent().resolve(file);
      }
      return Files.readAllBytes(file);
    }

    /** Standard output, and standard error when kubectl failed (warnings stay out of JSON). */
    private record Result(int exit, String output) {}

    private Result exec(String stdin, String... args) throws IOException, InterruptedException {
      List<String> line = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig));
      line.addAll(List.of(args));
      Path errors = Files.createTempFile("kubectl", ".err");
      try {
        Process p = new ProcessBuilder(line).redirectError(errors.toFile()).start();
        if (stdin != null) {
          p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          throw new AssertionError("kubectl " + String.join(" ", args) + ": no answer in 120 s");
        }
        return new Result(
            p.exitValue(), p.exitValue() == 0 ? output : output + Files.readString(errors));
      } finally {
        Files.deleteIfExists(errors);
      }
    }
  }
}
