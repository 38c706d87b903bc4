package dev.caldera.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.sim.ScenarioException;
import org.junit.jupiter.api.Test;

/** The limits of {@link YamlTrees}: large honest files load, alias bombs do not. */
class YamlTreesTest {

  @Test
  void aTextOfMoreThan16MiCharacters_loads() throws Exception {
    // A snapshot of 10k nodes and 100k pods is about 50 MB.
    String big = "x".repeat(20 * 1024 * 1024);

    var tree = YamlTrees.read("a: " + big + "\n", "big.yaml");

    assertThat(tree.path("a").asText()).hasSize(big.length());
  }

  @Test
  void aDocumentOfMoreThanAMillionValues_withoutAliases_loads() throws Exception {
    // ... and about 3 million values.
    int items = 1_100_000;
    String text = "items:\n" + "- 1\n".repeat(items);

    assertThat(YamlTrees.read(text, "many.yaml").path("items").size()).isEqualTo(items);
  }

  @Test
  void strictJson_readsAsTheSameTreeAsItsYaml() throws Exception {
    String yaml =
        "name: s\nnow: \"2026-01-01T00:00:00Z\"\nobjects:\n- {kind: Node, size: 2, ratio: 0.5}\n";
    String json =
        "{\"name\":\"s\",\"now\":\"2026-01-01T00:00:00Z\","
            + "\"objects\":[{\"kind\":\"Node\",\"size\":2,\"ratio\":0.5}]}";

    assertThat(YamlTrees.read(json, "s.json")).isEqualTo(YamlTrees.read(yaml, "s.yaml"));
  }

  @Test
  void jsonWithADuplicateKey_isRefusedAsYamlIs() {
    assertThatThrownBy(() -> YamlTrees.read("{\"a\": 1, \"a\": 2}", "dup.json"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("dup.json: not valid YAML")
        .hasMessageContaining("duplicate key");
  }

  @Test
  void flowYamlThatIsNotStrictJson_isStillReadAsYaml() throws Exception {
    assertThat(YamlTrees.read("{a: 1, b: [x, y]}", "flow.yaml").path("b").get(1).asText())
        .isEqualTo("y");
    assertThat(YamlTrees.read("{\"a\": 1}\n# a comment\n", "c.yaml").path("a").asInt())
        .isEqualTo(1);
  }

  @Test
  void aliasesOfAliases_expandingPastTheTextsSize_areRefused() {
    // 50 aliases (SnakeYAML's limit) in 5 levels of 10: a5 expands to 11 million values.
    StringBuilder sb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i <= 5; i++) {
      sb.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        sb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      sb.append("]\n");
    }

    assertThatThrownBy(() -> YamlTrees.read(sb.toString(), "bomb.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("bomb.yaml: not valid YAML: more values once aliases are expanded");
  }
}
