package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The PluginBundle CRD of {@code runtime/deploy/caldera-crds/} is the one the scheduler reads. */
class PluginBundleCrdTest {

  @Test
  void theCrdNamesWhatTheSchedulerWatches_andValidatesTheSpecAsTheSchedulerDoes() throws Exception {
    CustomResourceDefinition crd;
    try (InputStream in =
        Files.newInputStream(
            DeployManifests.directory().resolve("caldera-crds").resolve("pluginbundles.yaml"))) {
      crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
    }
    assertThat(crd.getSpec().getGroup()).isEqualTo(PluginBundles.GROUP);
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo(PluginBundles.PLURAL);
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    CustomResourceDefinitionVersion v = crd.getSpec().getVersions().get(0);
    assertThat(v.getName()).isEqualTo(PluginBundles.VERSION);
    assertThat(v.getSubresources().getStatus()).as("status subresource").isNotNull();
    JSONSchemaProps spec = v.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    assertThat(spec.getRequired()).containsExactly("sha256");
    Pattern sha = Pattern.compile(spec.getProperties().get("sha256").getPattern());
    assertThat(sha.matcher("a".repeat(64)).matches()).isTrue();
    assertThat(sha.matcher("a".repeat(63)).matches()).isFalse();
    Pattern maven = Pattern.compile(spec.getProperties().get("maven").getPattern());
    assertThat(maven.matcher("dev.example:plugin:1.0.0").matches()).isTrue();
    assertThat(maven.matcher("dev.example:plugin").matches()).isFalse();
    assertThat(
            v.getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("status")
                .getProperties()
                .get("replicas")
                .getAdditionalProperties()
                .getSchema()
                .getProperties()
                .get("state")
                .getEnum())
        .extracting(Object::toString)
        .containsExactlyInAnyOrder(
            "\"Installed\"", "\"Refused\"", "\"Failed\"", "\"Invalid\"", "\"NotActive\"");
  }
}
