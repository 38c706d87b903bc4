package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresources;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CRDs of {@code runtime/deploy/crds/} (the standalone install only) against Volcano's
 * published CRDs of its last three minor releases, kept unchanged as test resources ({@code
 * volcano-crds/<version>-<plural>.yaml}, each naming its tag and path in Volcano's repository).
 *
 * <p>For every release, ours must accept every field of Volcano's with the same type (so applying
 * ours over a Volcano install strips nothing from its objects) and serve the same subresources (a
 * status subresource where Volcano has none drops the PodGroup status Volcano's scheduler writes
 * with the whole object). Against the newest release, ours must be the same schema: the same
 * fields, defaults and validations, so a misspelled field is refused and a missing queue defaults
 * as under Volcano. And no file the beside-volcano or replace-volcano install applies
 * (docs/kubernetes.md, "Installing") holds a Volcano CRD or object.
 */
class VolcanoCrdsTest {

  /** Volcano's last three minor releases, oldest first; the last is the one ours must equal. */
  static final List<String> RELEASES = List.of("v1.13.3", "v1.14.4", "v1.15.1");

  private static final String NEWEST = RELEASES.get(RELEASES.size() - 1);

  private static final List<String> PLURALS = List.of("queues", "podgroups");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Stream<Arguments> releasesAndCrds() {
    return RELEASES.stream().flatMap(r -> PLURALS.stream().map(p -> Arguments.of(r, p)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("releasesAndCrds")
  void standaloneCrd_acceptsEveryFieldOfVolcanos_withTheSameType(String release, String plural)
      throws IOException {
    CustomResourceDefinition volcano = volcano(release, plural);
    CustomResourceDefinition crd = ours(plural);
    assertThat(crd.getSpec().getGroup()).isEqualTo(volcano.getSpec().getGroup());
    assertThat(crd.getSpec().getScope()).isEqualTo(volcano.getSpec().getScope());
    assertThat(crd.getSpec().getNames().getKind())
        .isEqualTo(volcano.getSpec().getNames().getKind());
    assertThat(crd.getSpec().getNames().getListKind())
        .isEqualTo(volcano.getSpec().getNames().getListKind());
    assertThat(crd.getSpec().getNames().getSingular())
        .isEqualTo(volcano.getSpec().getNames().getSingular());
    assertThat(crd.getSpec().getNames().getShortNames())
        .containsExactlyInAnyOrderElementsOf(volcano.getSpec().getNames().getShortNames());
    assertThat(only(crd).getName()).isEqualTo(only(volcano).getName());

    Map<String, String> theirs = fields(only(volcano), VolcanoCrdsTest::shape);
    Map<String, String> mine = fields(only(crd), VolcanoCrdsTest::shape);

    assertThat(mine).as("ours against Volcano %s", release).containsAllEntriesOf(theirs);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("releasesAndCrds")
  void standaloneCrd_servesVolcanosSubresources_andNoOther(String release, String plural)
      throws IOException {
    CustomResourceSubresources theirs = only(volcano(release, plural)).getSubresources();
    CustomResourceSubresources mine = only(ours(plural)).getSubresources();

    assertThat(mine == null || mine.getStatus() == null)
        .as("no status subresource, as Volcano %s", release)
        .isEqualTo(theirs == null || theirs.getStatus() == null);
    assertThat(mine == null || mine.getScale() == null)
        .isEqualTo(theirs == null || theirs.getScale() == null);
  }

  @Test
  void podGroups_haveNoStatusSubresource_soVolcanosWholeObjectStatusWritesLand()
      throws IOException {
    for (String release : RELEASES) {
      CustomResourceSubresources theirs = only(volcano(release, "podgroups")).getSubresources();
      assertThat(theirs == null || theirs.getStatus() == null).as(release).isTrue();
    }
    CustomResourceSubresources mine = only(ours("podgroups")).getSubresources();

    assertThat(mine == null || mine.getStatus() == null).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"queues", "podgroups"})
  void standaloneCrd_isTheNewestReleasesSchema_defaultsAndValidationsToo(String plural)
      throws IOException {
    Map<String, String> theirs = fields(only(volcano(NEWEST, plural)), VolcanoCrdsTest::describe);
    Map<String, String> mine = fields(only(ours(plural)), VolcanoCrdsTest::describe);

    assertThat(mine).containsExactlyEntriesOf(theirs);
  }

  @Test
  void newerQueueFields_areKept_dequeueStrategy_andHighestTierName() throws IOException {
    Map<String, String> queue = fields(only(ours("queues")), VolcanoCrdsTest::describe);
    Map<String, String> group = fields(only(ours("podgroups")), VolcanoCrdsTest::describe);

    assertThat(queue)
        .containsEntry("spec.dequeueStrategy", "string default=traverse enum=fifo|traverse");
    assertThat(group)
        .containsKeys(
            "spec.networkTopology.highestTierName",
            "spec.subGroupPolicy[].networkTopology.highestTierName",
            "spec.subGroupPolicy[].labelSelector.matchExpressions[].values[]");
  }

  @Test
  void podGroup_withAMisspelledField_isRefused_asVolcanosSchemaRefusesIt() throws IOException {
    JsonNode podGroup =
        YAML.readTree(
            "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
                + "metadata: {name: g}\nspec: {minMemeber: 3, queue: q, minResources: {cpu: 2}}\n");

    List<String> ours = new ArrayList<>();
    unknownFields(podGroup, only(ours("podgroups")).getSchema().getOpenAPIV3Schema(), "", ours);
    List<String> volcanos = new ArrayList<>();
    unknownFields(
        podGroup,
        only(volcano(NEWEST, "podgroups")).getSchema().getOpenAPIV3Schema(),
        "",
        volcanos);

    assertThat(ours).containsExactly("spec.minMemeber").isEqualTo(volcanos);
  }

  @Test
  void podGroup_withoutAQueue_defaultsToTheDefaultQueue_asVolcanosDoes() throws IOException {
    for (CustomResourceDefinition crd : List.of(ours("podgroups"), volcano(NEWEST, "podgroups"))) {
      JSONSchemaProps spec = only(crd).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
      assertThat(spec.getProperties().get("queue").getDefault().asText()).isEqualTo("default");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"beside-volcano", "replace-volcano"})
  void installBesideVolcano_appliesNoVolcanoCrdNorObject(String overlay) throws IOException {
    List<HasMetadata> applied = new ArrayList<>();
    for (Path kustomization :
        List.of(DeployManifests.calderaCrds(), DeployManifests.overlay(overlay))) {
      applied.addAll(kustomized(kustomization));
    }

    assertThat(applied).isNotEmpty();
    assertThat(applied)
        .filteredOn(o -> o instanceof CustomResourceDefinition)
        .map(o -> ((CustomResourceDefinition) o).getSpec().getGroup())
        .containsOnly("caldera.dev");
    assertThat(applied)
        .extracting(HasMetadata::getApiVersion)
        .noneMatch(v -> v.startsWith("scheduling.volcano.sh/"));
  }

  /**
   * docs/kubernetes.md's command sequences for the installs beside Volcano apply {@code
   * caldera-crds/} and their overlay, and never {@code crds/} (Volcano's own CRDs are the ones to
   * keep).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"**Instead of Volcano's scheduler**", "**Next to Volcano**"})
  void readmeInstallBesideVolcano_appliesCalderaCrds_andNeverVolcanoCrds(String heading)
      throws IOException {
    List<String> applied = readmeApplies(heading);

    assertThat(applied)
        .contains("runtime/deploy/caldera-crds")
        .noneMatch(d -> d.equals("runtime/deploy/crds"))
        .anyMatch(d -> d.startsWith("runtime/deploy/overlays/"));
  }

  @Test
  void readmeStandaloneInstall_appliesBothCrdDirectories_beforeTheOverlay() throws IOException {
    List<String> applied = readmeApplies("**Without Volcano**");

    assertThat(applied)
        .containsExactly(
            "runtime/deploy/crds",
            "runtime/deploy/caldera-crds",
            "runtime/deploy/overlays/standalone");
  }

  /** The directories {@code kubectl apply -k} names in the first code block after a heading. */
  private static List<String> readmeApplies(String heading) throws IOException {
    String readme =
        Files.readString(
            DeployManifests.directory().resolve("../../docs/kubernetes.md"),
            StandardCharsets.UTF_8);
    int at = readme.indexOf("\n" + heading);
    assertThat(at).as("docs/kubernetes.md has %s", heading).isPositive();
    int open = readme.indexOf("\n```\n", at);
    int close = readme.indexOf("\n```\n", open + 5);
    Matcher m = Pattern.compile("kubectl apply -k (\\S+)").matcher(readme.substring(open, close));
    List<String> applied = new ArrayList<>();
    while (m.find()) {
      applied.add(m.group(1));
    }
    return applied;
  }

  /**
   * Every document a kustomization's {@code resources:} name, directories followed (a pure-Java
   * reading: {@link KustomizeOverlaysTest} renders the same with kubectl where it is installed).
   */
  private static List<HasMetadata> kustomized(Path directory) throws IOException {
    JsonNode k = YAML.readTree(directory.resolve("kustomization.yaml").toFile());
    List<HasMetadata> out = new ArrayList<>();
    for (JsonNode r : k.path("resources")) {
      Path p = directory.resolve(r.asText()).normalize();
      if (Files.isDirectory(p)) {
        out.addAll(kustomized(p));
      } else {
        out.addAll(DeployManifests.documents(p));
      }
    }
    return out;
  }

  /** Each field of a CRD version's schema by path, described by {@code how}. */
  static Map<String, String> fields(
      CustomResourceDefinitionVersion v, java.util.function.Function<JSONSchemaProps, String> how) {
    Map<String, String> out = new TreeMap<>();
    flatten(null, v.getSchema().getOpenAPIV3Schema(), how, out);
    return out;
  }

  /**
   * Each field of a schema: {@code x.*} is the value of a map (additionalProperties), {@code x[]}
   * an item of a list.
   */
  private static void flatten(
      String path,
      JSONSchemaProps s,
      java.util.function.Function<JSONSchemaProps, String> how,
      Map<String, String> out) {
    out.put(path == null ? "." : path, how.apply(s));
    String prefix = path == null ? "" : path + ".";
    if (s.getProperties() != null) {
      s.getProperties().forEach((k, v) -> flatten(prefix + k, v, how, out));
    }
    if (s.getAdditionalProperties() != null && s.getAdditionalProperties().getSchema() != null) {
      flatten(prefix + "*", s.getAdditionalProperties().getSchema(), how, out);
    }
    if (s.getItems() != null && s.getItems().getSchema() != null) {
      flatten(path + "[]", s.getItems().getSchema(), how, out);
    }
  }

  /**
   * What decides whether a value is kept and how it merges: type (or quantity), format, unknown
   * fields kept, list and map type. Validations and defaults are left out: they changed between
   * Volcano's releases, and ours follow the newest.
   */
  private static String shape(JSONSchemaProps s) {
    List<String> words = new ArrayList<>();
    if (Boolean.TRUE.equals(s.getXKubernetesIntOrString())) {
      words.add("quantity");
    } else {
      words.add(String.valueOf(s.getType()));
      if (s.getFormat() != null) {
        words.add(s.getFormat());
      }
    }
    if (Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields())) {
      words.add("keeps-unknown-fields");
    }
    if (s.getXKubernetesListType() != null) {
      words.add("list=" + s.getXKubernetesListType());
    }
    if (s.getXKubernetesMapType() != null) {
      words.add("map=" + s.getXKubernetesMapType());
    }
    return String.join(" ", words);
  }

  /** The shape, then default, enum, bounds, pattern and required fields. */
  private static String describe(JSONSchemaProps s) {
    List<String> words = new ArrayList<>(List.of(shape(s)));
    if (s.getDefault() != null) {
      words.add("default=" + s.getDefault().asText());
    }
    if (s.getEnum() != null && !s.getEnum().isEmpty()) {
      words.add(
          "enum=" + s.getEnum().stream().map(JsonNode::asText).collect(Collectors.joining("|")));
    }
    Stream.of(
            "minimum=" + s.getMinimum(),
            "maximum=" + s.getMaximum(),
            "maxLength=" + s.getMaxLength(),
            "pattern=" + s.getPattern())
        .filter(w -> !w.endsWith("=null"))
        .forEach(words::add);
    if (s.getRequired() != null && !s.getRequired().isEmpty()) {
      words.add("required=" + String.join(",", s.getRequired()));
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

  private static CustomResourceDefinition ours(String plural) throws IOException {
    return DeployManifests.load(DeployManifests.crds()).stream()
        .map(CustomResourceDefinition.class::cast)
        .filter(c -> c.getSpec().getNames().getPlural().equals(plural))
        .findFirst()
        .orElseThrow();
  }

  /** Volcano's published CRD of a release, as kept in the test resources. */
  static CustomResourceDefinition volcano(String release, String plural) throws IOException {
    String resource = "/volcano-crds/" + release + "-" + plural + ".yaml";
    try (InputStream in = VolcanoCrdsTest.class.getResourceAsStream(resource)) {
      Objects.requireNonNull(in, resource);
      String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(yaml).startsWith("# Volcano " + release + ": ");
      return (CustomResourceDefinition) DeployManifests.parse(yaml).get(0);
    }
  }
}
