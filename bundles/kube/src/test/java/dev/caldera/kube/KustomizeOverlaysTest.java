package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kustomization of {@code runtime/deploy/} as {@code kubectl kustomize} renders it: {@code
 * crds/} and the three overlays. Each rendered object must load as its kind into fabric8's typed
 * model with no field the model does not know (as {@link ManifestsTest} checks the files), and each
 * overlay must be what its way of installing needs: only the standalone one creates queues, none
 * creates or replaces a CRD, and each schedules the pods of its scheduler name. {@link
 * KubectlDryRunTest} then applies the renderings (dry run) with the Queues and PodGroups validated
 * against the CRDs.
 *
 * <p>Skipped, saying so, when no kubectl 1.21 or later is on the {@code PATH}.
 */
class KustomizeOverlaysTest {

  private static final Map<String, String> SCHEDULER_NAME =
      Map.of("standalone", "volcano", "replace-volcano", "volcano", "beside-volcano", "caldera");

  @TempDir static Path work;

  @BeforeAll
  static void kubectlKustomizes() {
    assumeTrue(Kubectl.kustomizes(work), Kubectl.KUSTOMIZE_MISSING);
  }

  static List<String> overlays() {
    return DeployManifests.OVERLAYS;
  }

  @Test
  void crds_renderVolcanosQueueAndPodGroup_only() throws IOException {
    List<HasMetadata> objects = render(DeployManifests.crds());

    assertThat(objects).allMatch(CustomResourceDefinition.class::isInstance);
    assertThat(objects)
        .extracting(o -> o.getMetadata().getName())
        .containsExactlyInAnyOrder(
            "queues.scheduling.volcano.sh", "podgroups.scheduling.volcano.sh");
  }

  @Test
  void calderaCrds_renderThePluginBundleCrd_only_withNoUnknownField() throws IOException {
    List<HasMetadata> objects = render(DeployManifests.calderaCrds());

    assertThat(objects).hasSize(1).allMatch(CustomResourceDefinition.class::isInstance);
    CustomResourceDefinition crd = (CustomResourceDefinition) objects.get(0);
    List<String> unknown = new ArrayList<>();
    ManifestsTest.unknownFields(crd, "CustomResourceDefinition:", unknown);
    assertThat(unknown).isEmpty();
    assertThat(crd.getMetadata().getName()).isEqualTo("pluginbundles.caldera.dev");
    assertThat(crd.getMetadata().getLabels()).containsEntry("app.kubernetes.io/part-of", "caldera");
    assertThat(crd.getSpec().getGroup()).isEqualTo(PluginBundles.GROUP);
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo(PluginBundles.PLURAL);
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getVersions())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getName()).isEqualTo(PluginBundles.VERSION);
              assertThat(v.getServed()).isTrue();
              assertThat(v.getStorage()).isTrue();
              // The scheduler patches status/replicas only: the subresource must be there.
              assertThat(v.getSubresources().getStatus()).isNotNull();
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("overlays")
  void overlay_rendersObjectsThatLoadAsTheirKind_withNoUnknownField(String overlay)
      throws IOException {
    List<HasMetadata> objects = render(DeployManifests.overlay(overlay));

    List<String> unknown = new ArrayList<>();
    for (HasMetadata o : objects) {
      if (o.getKind().equals("Queue")) {
        assertThat(o).isInstanceOf(GenericKubernetesResource.class);
      } else {
        assertThat(o.getClass().getSimpleName()).as(o.getKind()).isEqualTo(o.getKind());
        ManifestsTest.unknownFields(
            o, o.getKind() + "/" + o.getMetadata().getName() + ":", unknown);
      }
      if (o instanceof Namespaced) {
        assertThat(o.getMetadata().getNamespace()).as(o.getKind()).isEqualTo("caldera-system");
      }
      assertThat(o.getMetadata().getLabels()).containsEntry("app.kubernetes.io/part-of", "caldera");
    }
    assertThat(unknown).isEmpty();
    assertThat(objects)
        .extracting(HasMetadata::getKind)
        .contains(
            "Namespace",
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding",
            "Role",
            "RoleBinding",
            "ConfigMap",
            "Deployment",
            "Service")
        .doesNotContain("CustomResourceDefinition");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("overlays")
  void overlay_schedulesItsSchedulerName_withTheImageOfThisBuild(String overlay)
      throws IOException {
    Deployment d =
        render(DeployManifests.overlay(overlay)).stream()
            .filter(Deployment.class::isInstance)
            .map(Deployment.class::cast)
            .findFirst()
            .orElseThrow();
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(ManifestsTest.env(c, "CALDERA_SCHEDULER_NAME").getValue())
        .isEqualTo(SCHEDULER_NAME.get(overlay));
    assertThat(c.getArgs()).contains("--scheduler-name=$(CALDERA_SCHEDULER_NAME)");
    assertThat(c.getImage())
        .isEqualTo("caldera:" + System.getProperty("caldera.version", "0.1.0-SNAPSHOT"));
  }

  @Test
  void onlyStandalone_createsQueues_theOthersLeaveVolcanosAlone() throws IOException {
    assertThat(render(DeployManifests.overlay("standalone")))
        .filteredOn(o -> o.getKind().equals("Queue"))
        .extracting(o -> o.getMetadata().getName())
        .containsExactly("default", "root");
    for (String overlay : List.of("replace-volcano", "beside-volcano")) {
      assertThat(render(DeployManifests.overlay(overlay)))
          .as(overlay)
          .extracting(HasMetadata::getApiVersion)
          .noneMatch(v -> v.startsWith("scheduling.volcano.sh/") || v.startsWith("apiextensions"));
    }
  }

  static List<HasMetadata> render(Path kustomization) throws IOException {
    return DeployManifests.parse(Kubectl.kustomize(work, kustomization));
  }
}
