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
  void anEightMegabyteScalar_loadsPlainQuotedAndInAList() throws Exception {
    // SnakeYAML's own reader copied the scalar's start at every 1,024 characters: 40 s for this.
    String big = "y".repeat(8 * 1024 * 1024);

    var tree =
        YamlTrees.read(
            "plain: " + big + "\nquoted: \"" + big + "\"\nlist:\n- '" + big + "'\n", "big.yaml");

    assertThat(tree.path("plain").asText()).isEqualTo(big);
    assertThat(tree.path("quoted").asText()).isEqualTo(big);
    assertThat(tree.path("list").get(0).asText()).isEqualTo(big);
  }

  @Test
  void aJsonTextWithAStringPastJacksonsDefaultLimit_isReadAsJson() throws Exception {
    // "\/" is JSON, not YAML 1.1: read as YAML, this text is an error at once.
    String big = "z".repeat(21 * 1024 * 1024);

    var tree = YamlTrees.read("{\"a\": \"\\/" + big + "\"}", "big.json");

    assertThat(tree.path("a").asText()).hasSize(big.length() + 1).startsWith("/z");
  }

  @Test
  void lineBreaksTabsAndNonAscii_readAsSnakeYamlReadsThem() throws Exception {
    String text =
        "\uFEFFa: \"caf\u00e9 \ud83d\ude00\"\r\nb:\r\n  - x\r\n  - |\n    l1\n    l2\n"
            + "c: >\n  f1\n  f2\n\nd: {e: [1, 2.5, true, null, 2026-01-01]}\n";
    Object expected = new org.yaml.snakeyaml.Yaml().load(text);

    var tree = YamlTrees.read(text, "t.yaml");

    assertThat(tree.path("a").asText()).isEqualTo("caf\u00e9 \ud83d\ude00");
    assertThat(tree.path("b").get(1).asText()).isEqualTo("l1\nl2\n");
    assertThat(tree.path("c").asText()).isEqualTo("f1 f2\n");
    assertThat(tree.path("d").path("e").get(4).asText()).isEqualTo("2026-01-01");
    assertThat(((java.util.Map<?, ?>) expected).get("b"))
        .isEqualTo(java.util.List.of("x", "l1\nl2\n"));
  }

  @Test
  void aSyntaxError_namesTheLineAndColumnAsBefore() {
    assertThatThrownBy(() -> YamlTrees.read("a: 1\r\nb: [1, 2\nc: 3\n", "bad.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("bad.yaml: not valid YAML: line 3, column 2: ");
    assertThatThrownBy(() -> YamlTrees.read("a: \"\u0001\"\n", "ctl.yaml"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("special characters are not allowed");
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
