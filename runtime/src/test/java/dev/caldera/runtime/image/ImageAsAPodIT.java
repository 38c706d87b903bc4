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
 * server (admin rights), the amd64 image runs as the shipped Deployment runs it, the way a kubelet
 * would start its pod: the Deployment's arguments and environment, the ConfigMap's files where its
 * volume puts them, the service account's token, CA and namespace where Kubernetes mounts them,
 * {@code KUBERNETES_SERVICE_HOST/PORT}, and the image's entrypoint as user 10001 in its own root
 * file system ({@link ContainerRun}). Two things differ, both visible below: the scheduler name is
 * a new one per run (the Deployment's {@code CALDERA_SCHEDULER_NAME}, so no other scheduler takes
 * the test's pods) and the admin API listens on a free port instead of 8080. Needs kubectl, root,
 * unshare and an amd64 machine; skipped otherwise, saying which.
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

  @Test
  void theImageRunsAsTheDeploymentSays_leadsBindsAGangAndHandsTheLeaseBackOnSigterm()
      throws Exception {
    String kubeconfig = System.getenv("CALDERA_TEST_KUBECONFIG");
    assumeTrue(
        kubeconfig != null && !kubeconfig.isBlank(),
        "CALDERA_TEST_KUBECONFIG names no API server (README, the opt-in real-cluster suite)");
    String unavailable = ContainerRun.unavailable();
    assumeTrue(unavailable == null, unavailable);
    assumeTrue(
        ContainerRun.succeeds(List.of("kubectl", "version", "--client")), "kubectl not found");
    Path tarball = Path.of("target/caldera-image-amd64.tar");
    assumeTrue(Files.isRegularFile(tarball), "the amd64 image was not built (README, The image)");
    kubectl = new Kubectl(kubeconfig);

    installWithoutTheDeployment();
    JsonNode lease = kubectl.jsonOrNull("-n", SYSTEM_NS, "get", "lease", "caldera-scheduler");
    assumeTrue(
        lease == null || !heldNow(lease.path("spec")),
        "the lease caldera-system/caldera-scheduler is held by "
            + (lease == null ? "" : lease.path("spec").path("holderIdentity").asText()));

    JsonNode deployment = YAML.readTree(DEPLOY.resolve("base/deployment.yaml").toFile());
    JsonNode pod = deployment.path("spec").path("template").path("spec");
    JsonNode container = pod.path("containers").path(0);
    OciImageTarball image = OciImageTarball.open(tarball, work.resolve("tarball"));
    Path root = podRoot(image, pod, container);
    int adminPort = freePort();
    Map<String, String> env = environment(image, container);
    List<String> command = new ArrayList<>();
    image.config.path("config").path("Entrypoint").forEach(a -> command.add(a.asText()));
    for (JsonNode arg : container.path("args")) {
      String expanded = expand(arg.asText(), env);
      command.add(
          expanded.startsWith("--admin-address=")
              ? "--admin-address=127.0.0.1:" + adminPort
              : expanded);
    }
    Path output = work.resolve("pod.log");
    Process process =
        ContainerRun.builder(root, env, command).redirectOutput(output.toFile()).start();
    try {
      createGang();
      HttpClient http = HttpClient.newHttpClient();
      URI admin = URI.create("http://127.0.0.1:" + adminPort);

      await(
          "/readyz says running",
          () -> {
            String body = get(http, admin.resolve("/readyz"));
            return body != null && body.contains("\"state\" : \"running\"");
          },
          output);
      await("the gang bound to the test's nodes", this::gangBound, output);
      String metrics = get(http, admin.resolve("/metrics"));
      assertThat(metrics).contains("caldera_leader 1.0", "caldera_binds_total 3.0");
      JsonNode events = kubectl.json("-n", ns, "get", "events");
      assertThat(events.path("items").findValuesAsText("reason")).contains("Scheduled");
      String holder =
          kubectl
              .json("-n", SYSTEM_NS, "get", "lease", "caldera-scheduler")
              .path("spec")
              .path("holderIdentity")
              .asText();
      assertThat(holder).startsWith(podName);

      // A kubelet stops a container with SIGTERM to its first process: the JVM here.
      ProcessHandle jvm = process.toHandle().children().findFirst().orElseThrow();
      jvm.destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped within 60 s").isTrue();
      assertThat(process.exitValue()).as(Files.readString(output)).isZero();
      assertThat(Files.readString(output))
          .contains("SchedulerStopped: after", "sessions: 3 binds, 0 evictions");
      JsonNode released = kubectl.json("-n", SYSTEM_NS, "get", "lease", "caldera-scheduler");
      assertThat(released.path("spec").path("leaseDurationSeconds").asInt())
          .as("the lease handed back (a 1 s duration: the next replica takes it at once)")
          .isEqualTo(1);
    } finally {
      process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      cleanUp();
    }
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
  private Path podRoot(OciImageTarball image, JsonNode pod, JsonNode container)
      throws IOException, InterruptedException {
    Path root = Files.createDirectories(work.resolve("root"));
    image.unpackLayers(root);
    Files.createDirectories(root.resolve("proc"));
    Files.createDirectories(root.resolve("dev"));
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
    return root;
  }

  /** The image's environment, then the container's: what a kubelet gives the entrypoint. */
  private Map<String, String> environment(OciImageTarball image, JsonNode container)
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
        ---
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: gang, namespace: %s}
        spec: {minMember: 3, queue: %s}
        """
            .formatted(ns, ns, ns, ns, ns));
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
    for (int i = 0; i < 3; i++) {
      // Tolerations: a node without a kubelet is tainted not-ready (at creation, or by a
      // controller manager's node lifecycle controller).
      yaml.append(
          """
          ---
          apiVersion: v1
          kind: Pod
          metadata:
            name: gang-%d
            namespace: %s
            annotations: {scheduling.k8s.io/group-name: gang}
          spec:
            schedulerName: %s
            nodeSelector: {caldera-image-e2e: "%s"}
            tolerations:
            - {key: node.kubernetes.io/not-ready, operator: Exists}
            - {key: node.kubernetes.io/unreachable, operator: Exists}
            containers:
            - {name: c, image: busybox, resources: {requests: {cpu: "2", memory: 1Gi}}}
          """
              .formatted(i, ns, schedulerName, run));
    }
    kubectl.applyStdin(yaml.toString());
  }

  private boolean gangBound() {
    try {
      JsonNode pods = kubectl.json("-n", ns, "get", "pods");
      List<String> boundTo = pods.path("items").findValuesAsText("nodeName");
      return pods.path("items").size() == 3 && boundTo.size() == 3 && nodes.containsAll(boundTo);
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

  private static void await(String what, BooleanSupplier condition, Path output)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            what + ": not within 90 s; the pod's output:\n" + Files.readString(output));
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
      Result r = exec(null, args);
      if (r.exit != 0) {
        throw new AssertionError("kubectl " + String.join(" ", args) + ": " + r.output);
      }
      return r.output;
    }

    void applyStdin(String yaml) throws IOException, InterruptedException {
      Result r = exec(yaml, "apply", "-f", "-");
      if (r.exit != 0) {
        throw new AssertionError("kubectl apply: " + r.output);
      }
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
