package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CRDs of {@code runtime/deploy/crds/} against Volcano's, field by field: the facts of
 * Volcano's published CRDs are in {@code volcano-crds.yaml} (test resources), one line per field
 * with its type, format, default and enum. Same fields means the API server treats an object the
 * same under either: a field Volcano's schema does not name (such as {@code spec.minMemeber}) is
 * rejected (kubectl's strict field validation) or pruned under Caldera's too, and a default
 * Volcano's applies ({@code spec.queue: default}) is applied here too; the last two tests show both
 * on the schema itself.
 */
class VolcanoCrdsTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"queues.scheduling.volcano.sh", "podgroups.scheduling.volcano.sh"})
  void crd_hasVolcanosNames_andExactlyVolcanosFields(String name) throws IOException {
    JsonNode volcano = volcanoFacts().get(name);
    CustomResourceDefinition crd = ours(name);
    var names = crd.getSpec().getNames();
    assertThat(names.getKind()).isEqualTo(volcano.get("kind").asText());
    assertThat(names.getPlural()).isEqualTo(volcano.get("plural").asText());
    assertThat(names.getSingular()).isEqualTo(volcano.get("singular").asText());
    assertThat(names.getShortNames())
        .containsExactlyElementsOf(
            volcano.get("shortNames").valueStream().map(JsonNode::asText).toList());
    assertThat(crd.getSpec().getScope()).isEqualTo(volcano.get("scope").asText());
    CustomResourceDefinitionVersion version = only(crd);
    assertThat(version.getName()).isEqualTo(volcano.get("version").asText());

    Map<String, String> expected = new TreeMap<>();
    volcano
        .get("fields")
        .properties()
        .forEach(f -> expected.put(f.getKey(), f.getValue().asText()));
    Map<String, String> actual = new TreeMap<>();
    flatten(null, version.getSchema().getOpenAPIV3Schema(), actual);

    assertThat(actual).containsExactlyEntriesOf(expected);
  }

  @Test
  void podGroup_withAMisspelledField_isRefused_asVolcanosSchemaRefusesIt() throws IOException {
    JSONSchemaProps schema =
        only(ours("podgroups.scheduling.volcano.sh")).getSchema().getOpenAPIV3Schema();
    JsonNode podGroup =
        YAML.readTree(
            "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
                + "metadata: {name: g}\nspec: {minMemeber: 3, queue: q, minResources: {cpu: 2}}\n");

    List<String> unknown = new ArrayList<>();
    unknownFields(podGroup, schema, "", unknown);

    assertThat(unknown).containsExactly("spec.minMemeber");
    assertThat(
            volcanoFacts()
                .get("podgroups.scheduling.volcano.sh")
                .get("fields")
                .has("spec.minMemeber"))
        .isFalse();
  }

  @Test
  void podGroup_withoutAQueue_defaultsToTheDefaultQueue_asVolcanosDoes() throws IOException {
    JSONSchemaProps spec =
        only(ours("podgroups.scheduling.volcano.sh"))
            .getSchema()
            .getOpenAPIV3Schema()
            .getProperties()
            .get("spec");

    assertThat(spec.getProperties().get("queue").getDefault().asText()).isEqualTo("default");
    assertThat(
            volcanoFacts()
                .get("podgroups.scheduling.volcano.sh")
                .get("fields")
                .get("spec.queue")
                .asText())
        .contains("default=default");
  }

  /** Each field of a schema, as {@code volcano-crds.yaml} writes it. */
  static void flatten(String path, JSONSchemaProps s, Map<String, String> out) {
    if (path != null) {
      out.put(path, describe(s));
    }
    String prefix = path == null ? "" : path + ".";
    if (s.getProperties() != null) {
      s.getProperties().forEach((k, v) -> flatten(prefix + k, v, out));
    }
    if (s.getAdditionalProperties() != null && s.getAdditionalProperties().getSchema() != null) {
      flatten(prefix + "*", s.getAdditionalProperties().getSchema(), out);
    }
    if (s.getItems() != null && s.getItems().getSchema() != null) {
      flatten(path + "[]", s.getItems().getSchema(), out);
    }
  }

  private static String describe(JSONSchemaProps s) {
    List<String> words = new ArrayList<>();
    if (Boolean.TRUE.equals(s.getXKubernetesIntOrString())) {
      words.add("quantity");
    } else {
      words.add(String.valueOf(s.getType()));
      if (s.getFormat() != null) {
        words.add(s.getFormat());
      }
    }
    if (s.getDefault() != null) {
      words.add("default=" + s.getDefault().asText());
    }
    if (s.getEnum() != null && !s.getEnum().isEmpty()) {
      words.add(
          "enum=" + s.getEnum().stream().map(JsonNode::asText).collect(Collectors.joining("|")));
    }
    if (s.getRequired() != null && !s.getRequired().isEmpty()) {
      words.add("required=" + String.join(",", s.getRequired()));
    }
    if (Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields())) {
      words.add("keeps-unknown-fields");
    }
    return String.join(" ", words);
  }

  /**
   * The fields of {@code value} that {@code schema} does not name, as the API server finds them.
   */
  static void unknownFields(JsonNode value, JSONSchemaProps schema, String path, List<String> out) {
    if (Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields())) {
      return;
    }
    String prefix = path.isEmpty() ? "" : path + ".";
    if (value.isObject()) {
      value
          .properties()
          .forEach(
              f -> {
                JSONSchemaProps field =
                    schema.getProperties() == null ? null : schema.getProperties().get(f.getKey());
                if (field == null
                    && schema.getAdditionalProperties() != null
                    && schema.getAdditionalProperties().getSchema() != null) {
                  field = schema.getAdditionalProperties().getSchema();
                }
                if (field == null) {
                  if (!"metadata".equals(path)) {
                    out.add(prefix + f.getKey());
                  }
                } else {
                  unknownFields(f.getValue(), field, prefix + f.getKey(), out);
                }
              });
    } else if (value.isArray() && schema.getItems() != null) {
      for (JsonNode item : value) {
        unknownFields(item, schema.getItems().getSchema(), path + "[]", out);
      }
    }
  }

  private static CustomResourceDefinitionVersion only(CustomResourceDefinition crd) {
    assertThat(crd.getSpec().getVersions()).hasSize(1);
    return crd.getSpec().getVersions().get(0);
  }

  private static CustomResourceDefinition ours(String name) throws IOException {
    return DeployManifests.load(DeployManifests.crds()).stream()
        .map(CustomResourceDefinition.class::cast)
        .filter(c -> c.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static Map<String, JsonNode> volcanoFacts() throws IOException {
    try (InputStream in = VolcanoCrdsTest.class.getResourceAsStream("/volcano-crds.yaml")) {
      Map<String, JsonNode> facts = new LinkedHashMap<>();
      YAML.readTree(in).properties().forEach(f -> facts.put(f.getKey(), f.getValue()));
      return facts;
    }
  }
}
