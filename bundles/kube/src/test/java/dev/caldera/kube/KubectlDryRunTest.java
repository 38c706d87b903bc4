package dev.caldera.kube;

import static dev.caldera.kube.DeployManifests.SERIALIZATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kubectl apply --dry-run=client -f runtime/deploy/}, run against {@link DryRunApiServer}
 * (there is no API server on the build machines). kubectl reads every file, maps every document's
 * kind and apiVersion through the stand-in's discovery, validates the custom resources (the Queues)
 * against the schemas of the CRDs in {@code 00-crds.yaml}, and looks each object up, finding none.
 * So a kind or apiVersion the manifests do not define and fabric8's model does not know fails, and
 * so does a Queue with a field the CRD does not allow. The fields of the built-in kinds are not
 * validated here (the stand-in has no schema for them): {@link ManifestsTest} loads those documents
 * into fabric8's typed model.
 *
 * <p>Skipped when {@code kubectl} is not on the {@code PATH}. Runs with kubectl 1.20 (Debian's
 * {@code kubernetes-client}, which CI installs) and with current ones.
 */
class KubectlDryRunTest {

  private static final long KUBECTL_TIMEOUT_SECONDS = 60;

  /** kubectl's line per applied object: {@code kind[.group]/name created (dry run)}. */
  private static final Pattern APPLIED =
      Pattern.compile("(?m)^(\\S+/\\S+) (?:created|configured) \\(dry run\\)$");

  private static List<HasMetadata> manifests;
  private static DryRunApiServer server;

  @TempDir Path work;

  @BeforeAll
  static void startStandIn() throws IOException {
    assumeTrue(
        onPath("kubectl"),
        "kubectl is not on the PATH: install it (Debian: apt-get install kubernetes-client) to"
            + " check runtime/deploy/ with kubectl apply --dry-run=client");
    manifests = DeployManifests.load(DeployManifests.directory());
    server = DryRunApiServer.serving(manifests);
  }

  @AfterAll
  static void stopStandIn() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void applyDryRun_createsEveryDocument_afterValidatingTheQueues() throws Exception {
    KubectlRun run = applyDryRun(DeployManifests.directory());

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(manifests).isNotEmpty();
    assertThat(applied(run.output()))
        .as(run.output())
        .containsExactlyInAnyOrderElementsOf(
            manifests.stream().map(KubectlDryRunTest::printedName).toList());
    assertThat(server.requests())
        .as("dry run: kubectl only reads; and it fetched the schemas to validate with")
        .allMatch(r -> r.startsWith("GET "))
        .contains("GET /openapi/v2");
  }

  static Stream<Arguments> brokenDocuments() {
    return Stream.of(
        arguments(
            "a Queue field outside spec",
            "06-queues.yaml",
            "default",
            (Consumer<GenericKubernetesResource>)
                queue -> queue.setAdditionalProperty("weight", spec(queue).remove("weight")),
            "unknown field \"weight\" in sh.volcano.scheduling.v1beta1.Queue"),
        arguments(
            "a Queue spec that is not an object",
            "06-queues.yaml",
            "root",
            (Consumer<GenericKubernetesResource>)
                queue -> queue.setAdditionalProperty("spec", "weight=1"),
            "invalid type for sh.volcano.scheduling.v1beta1.Queue.spec"),
        arguments(
            "a Deployment of a removed apiVersion",
            "04-deployment.yaml",
            "caldera-scheduler",
            (Consumer<GenericKubernetesResource>)
                deployment -> deployment.setApiVersion("apps/v1beta1"),
            "no matches for kind \"Deployment\" in version \"apps/v1beta1\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenDocuments")
  void applyDryRun_fails_onABrokenDocument_namingItsFileAndFault(
      String breakage,
      String file,
      String name,
      Consumer<GenericKubernetesResource> change,
      String message)
      throws Exception {
    Path copy = copyWithOneDocumentChanged(file, name, change);

    KubectlRun run = applyDryRun(copy);

    assertThat(run.exitCode()).as(run.output()).isNotZero();
    assertThat(run.output()).contains(copy.resolve(file).toString()).contains(message);
    HasMetadata broken = document(file, name);
    assertThat(applied(run.output()))
        .as(run.output())
        .doesNotContain(printedName(broken))
        .isNotEmpty();
  }

  private Path copyWithOneDocumentChanged(
      String file, String name, Consumer<GenericKubernetesResource> change) throws IOException {
    Path copy = Files.createDirectories(work.resolve("deploy"));
    for (Path original : DeployManifests.files(DeployManifests.directory())) {
      Files.copy(original, copy.resolve(original.getFileName()));
    }
    List<String> documents = new ArrayList<>();
    for (HasMetadata document : DeployManifests.documents(copy.resolve(file))) {
      if (document.getMetadata().getName().equals(name)) {
        GenericKubernetesResource changed =
            SERIALIZATION.convertValue(document, GenericKubernetesResource.class);
        change.accept(changed);
        documents.add(SERIALIZATION.asYaml(changed));
      } else {
        documents.add(SERIALIZATION.asYaml(document));
      }
    }
    Files.writeString(copy.resolve(file), String.join("", documents));
    return copy;
  }

  private KubectlRun applyDryRun(Path directory) throws IOException, InterruptedException {
    Path kubeconfig = work.resolve("kubeconfig");
    Files.writeString(kubeconfig, TestKubeconfig.yaml(server.uri()));
    Path output = work.resolve("kubectl.out");
    Process kubectl =
        new ProcessBuilder(
                "kubectl",
                "--kubeconfig=" + kubeconfig,
                // A fresh discovery cache: never ~/.kube/cache, never a previous run's answers.
                "--cache-dir=" + work.resolve("cache"),
                "apply",
                "--dry-run=client",
                "-f",
                directory.toString())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    if (!kubectl.waitFor(KUBECTL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      kubectl.destroyForcibly();
      fail(
          "kubectl did not finish in %d s:%n%s", KUBECTL_TIMEOUT_SECONDS, Files.readString(output));
    }
    return new KubectlRun(kubectl.exitValue(), Files.readString(output));
  }

  private static List<String> applied(String kubectlOutput) {
    List<String> names = new ArrayList<>();
    Matcher m = APPLIED.matcher(kubectlOutput);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** How kubectl names an object in its output: lower-case kind, its group, the name. */
  private static String printedName(HasMetadata object) {
    String apiVersion = object.getApiVersion();
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : "." + apiVersion.substring(0, slash);
    return object.getKind().toLowerCase(Locale.ROOT) + group + "/" + object.getMetadata().getName();
  }

  private static HasMetadata document(String file, String name) throws IOException {
    return DeployManifests.documents(DeployManifests.directory().resolve(file)).stream()
        .filter(d -> d.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @SuppressWarnings("unchecked") // a Queue's spec is a YAML mapping
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }

  private static boolean onPath(String command) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
  }

  private record KubectlRun(int exitCode, String output) {}
}
