package dev.caldera.kube;

import static dev.caldera.kube.DeployManifests.SERIALIZATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * {@code kubectl apply --dry-run=client} of {@code runtime/deploy/crds/} and each overlay as {@code
 * kubectl kustomize} renders it (and of {@code caldera-crds/} with a PluginBundle), run against
 * {@link DryRunApiServer} (there is no API server on the build machines). kubectl reads every
 * document, maps every kind and apiVersion through the stand-in's discovery, validates the custom
 * resources (the Queues) against the schemas of the CRDs in {@code crds/}, and looks each object
 * up, finding none. So a kind or apiVersion the manifests do not define and fabric8's model does
 * not know fails, and so does a Queue or PodGroup with a field the CRD does not allow. The fields
 * of the built-in kinds are not validated here (the stand-in has no schema for them): {@link
 * ManifestsTest} and {@link KustomizeOverlaysTest} load those documents into fabric8's typed model.
 *
 * <p>Skipped, saying so, when no kubectl 1.21 or later is on the {@code PATH}.
 */
class KubectlDryRunTest {

  /** kubectl's line per applied object: {@code kind[.group]/name created (dry run)}. */
  private static final Pattern APPLIED =
      Pattern.compile("(?m)^(\\S+/\\S+) (?:created|configured) \\(dry run\\)$");

  private static List<HasMetadata> crds;
  private static DryRunApiServer server;

  @TempDir static Path shared;
  @TempDir Path work;

  @BeforeAll
  static void startStandIn() throws IOException {
    assumeTrue(Kubectl.kustomizes(shared), Kubectl.KUSTOMIZE_MISSING);
    crds = DeployManifests.load(DeployManifests.crds());
    List<HasMetadata> served = new ArrayList<>(DeployManifests.standalone());
    served.addAll(DeployManifests.load(DeployManifests.calderaCrds()));
    server = DryRunApiServer.serving(served);
  }

  @AfterAll
  static void stopStandIn() {
    if (server != null) {
      server.close();
    }
  }

  static List<String> overlays() {
    return DeployManifests.OVERLAYS;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("overlays")
  void applyDryRun_ofTheCrdsAndAnOverlay_createsEveryDocument(String overlay) throws Exception {
    Path rendered = work.resolve(overlay + ".yaml");
    Files.writeString(rendered, Kubectl.kustomize(work, DeployManifests.overlay(overlay)));
    List<HasMetadata> objects = new ArrayList<>(crds);
    objects.addAll(DeployManifests.documents(rendered));

    Path renderedCrds = work.resolve("crds.yaml");
    Files.writeString(renderedCrds, Kubectl.kustomize(work, DeployManifests.crds()));

    Kubectl.Run run = applyDryRun(renderedCrds, rendered);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(applied(run.output()))
        .as(run.output())
        .containsExactlyInAnyOrderElementsOf(
            objects.stream().map(KubectlDryRunTest::printedName).toList());
    assertThat(server.requests())
        .as("dry run: kubectl only reads; and it fetched the schemas to validate with")
        .allMatch(r -> r.startsWith("GET "))
        .contains("GET /openapi/v2");
  }

  /** A PluginBundle as docs/kubernetes.md shows it, with {@code extra} added to its spec. */
  private static String pluginBundle(String extra) {
    return "apiVersion: caldera.dev/v1alpha1\nkind: PluginBundle\n"
        + "metadata: {name: my-plugin, namespace: caldera-system}\n"
        + "spec:\n  maven: dev.example:my-caldera-plugin:1.2.0\n"
        + extra;
  }

  @Test
  void applyDryRun_ofTheCalderaCrdAndAPluginBundle_createsBoth() throws Exception {
    Path renderedCrd = work.resolve("caldera-crds.yaml");
    Files.writeString(renderedCrd, Kubectl.kustomize(work, DeployManifests.calderaCrds()));
    Path bundle = work.resolve("pluginbundle.yaml");
    Files.writeString(bundle, pluginBundle("  sha256: " + "3f1c".repeat(16) + "\n"));

    Kubectl.Run run = applyDryRun(renderedCrd, bundle);

    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(applied(run.output()))
        .as(run.output())
        .containsExactlyInAnyOrder(
            "customresourcedefinition.apiextensions.k8s.io/pluginbundles.caldera.dev",
            "pluginbundle.caldera.dev/my-plugin");
  }

  @Test
  void applyDryRun_fails_onAPluginBundleWithAMisspelledField() throws Exception {
    Path bundle = work.resolve("pluginbundle.yaml");
    Files.writeString(bundle, pluginBundle("  sha265: " + "3f1c".repeat(16) + "\n"));

    Kubectl.Run run = applyDryRun(bundle);

    assertThat(run.exitCode()).as(run.output()).isNotZero();
    assertThat(run.output())
        .contains(bundle.toString())
        .contains("unknown field \"sha265\" in dev.caldera.v1alpha1.PluginBundle.spec");
    assertThat(applied(run.output())).isEmpty();
  }

  static Stream<Arguments> brokenDocuments() {
    return Stream.of(
        arguments(
            "a Queue field outside spec",
            "Queue",
            "default",
            (Consumer<GenericKubernetesResource>)
                queue -> queue.setAdditionalProperty("weight", spec(queue).remove("weight")),
            "unknown field \"weight\" in sh.volcano.scheduling.v1beta1.Queue"),
        arguments(
            "a misspelled Queue spec field (Volcano's schema rejects it too)",
            "Queue",
            "root",
            (Consumer<GenericKubernetesResource>)
                queue -> spec(queue).put("wieght", spec(queue).remove("weight")),
            "unknown field \"wieght\" in sh.volcano.scheduling.v1beta1.Queue.spec"),
        arguments(
            "a PodGroup with spec.minMemeber (Volcano's schema rejects it too)",
            "PodGroup",
            "gang",
            (Consumer<GenericKubernetesResource>)
                group -> spec(group).put("minMemeber", spec(group).remove("minMember")),
            "unknown field \"minMemeber\" in sh.volcano.scheduling.v1beta1.PodGroup.spec"),
        arguments(
            "a Queue spec that is not an object",
            "Queue",
            "root",
            (Consumer<GenericKubernetesResource>)
                queue -> queue.setAdditionalProperty("spec", "weight=1"),
            "invalid type for sh.volcano.scheduling.v1beta1.Queue.spec"),
        arguments(
            "a Deployment of a removed apiVersion",
            "Deployment",
            "caldera-scheduler",
            (Consumer<GenericKubernetesResource>)
                deployment -> deployment.setApiVersion("apps/v1beta1"),
            "no matches for kind \"Deployment\" in version \"apps/v1beta1\""));
  }

  /** The standalone overlay as rendered, plus a valid PodGroup to break. */
  private List<HasMetadata> standaloneWithAPodGroup() throws IOException {
    List<HasMetadata> objects =
        new ArrayList<>(
            DeployManifests.parse(Kubectl.kustomize(work, DeployManifests.overlay("standalone"))));
    objects.add(
        DeployManifests.parse(
                "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
                    + "metadata: {name: gang, namespace: default}\n"
                    + "spec: {minMember: 2, queue: default}\n")
            .get(0));
    return objects;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenDocuments")
  void applyDryRun_fails_onABrokenDocument_namingItsFileAndFault(
      String breakage,
      String kind,
      String name,
      Consumer<GenericKubernetesResource> change,
      String message)
      throws Exception {
    List<HasMetadata> objects = standaloneWithAPodGroup();
    Path broken = work.resolve("broken.yaml");
    Files.writeString(broken, yaml(objects, kind, name, change));

    Kubectl.Run run = applyDryRun(broken);

    assertThat(run.exitCode()).as(run.output()).isNotZero();
    assertThat(run.output()).contains(broken.toString()).contains(message);
    HasMetadata document =
        objects.stream()
            .filter(o -> o.getKind().equals(kind) && o.getMetadata().getName().equals(name))
            .findFirst()
            .orElseThrow();
    assertThat(applied(run.output()))
        .as(run.output())
        .doesNotContain(printedName(document))
        .isNotEmpty();
  }

  /** The documents as one YAML stream, the one of {@code kind} and {@code name} changed. */
  private static String yaml(
      List<HasMetadata> objects,
      String kind,
      String name,
      Consumer<GenericKubernetesResource> change) {
    StringBuilder out = new StringBuilder();
    for (HasMetadata document : objects) {
      if (document.getKind().equals(kind) && document.getMetadata().getName().equals(name)) {
        GenericKubernetesResource changed =
            SERIALIZATION.convertValue(document, GenericKubernetesResource.class);
        change.accept(changed);
        out.append(SERIALIZATION.asYaml(changed));
      } else {
        out.append(SERIALIZATION.asYaml(document));
      }
    }
    return out.toString();
  }

  private Kubectl.Run applyDryRun(Path... files) throws IOException {
    Path kubeconfig = work.resolve("kubeconfig");
    Files.writeString(kubeconfig, TestKubeconfig.yaml(server.uri()));
    List<String> args = new ArrayList<>();
    args.add("--kubeconfig=" + kubeconfig);
    // A fresh discovery cache: never ~/.kube/cache, never a previous run's answers.
    args.add("--cache-dir=" + work.resolve("cache"));
    args.add("apply");
    args.add("--dry-run=client");
    for (Path file : files) {
      args.add("-f");
      args.add(file.toString());
    }
    return Kubectl.run(work, args.toArray(String[]::new));
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

  @SuppressWarnings("unchecked") // a Queue's spec is a YAML mapping
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }
}
