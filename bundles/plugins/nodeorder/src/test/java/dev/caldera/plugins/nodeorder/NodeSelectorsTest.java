package dev.caldera.plugins.nodeorder;

import static dev.caldera.testkit.NodeBuilder.node;
import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSelectorsTest {

  private static final Map<String, String> LABELS = Map.of("zone", "a", "cores", "16");

  private static boolean matches(String key, String operator, String... values) {
    NodeSelectorTerm term =
        new NodeSelectorTerm(
            List.of(new NodeSelectorRequirement(key, operator, List.of(values))), null);
    return NodeSelectors.termMatches(term, LABELS, "n1");
  }

  @Test
  void termMatches_labelOperators() {
    assertThat(matches("zone", "In", "a", "b")).isTrue();
    assertThat(matches("zone", "In", "b")).isFalse();
    assertThat(matches("zone", "NotIn", "b")).isTrue();
    assertThat(matches("rack", "NotIn", "b")).isTrue();
    assertThat(matches("zone", "Exists")).isTrue();
    assertThat(matches("rack", "DoesNotExist")).isTrue();
    assertThat(matches("cores", "Gt", "8")).isTrue();
    assertThat(matches("cores", "Lt", "8")).isFalse();
    assertThat(matches("zone", "Gt", "8")).isFalse();
  }

  @Test
  void termMatches_invalidRequirementsMatchNothing() {
    assertThat(matches("zone", "In")).isFalse();
    assertThat(matches("rack", "NotIn")).isFalse();
    assertThat(matches("zone", "Exists", "a")).isFalse();
    assertThat(matches("cores", "Gt", "8", "9")).isFalse();
    assertThat(matches("zone", "Like", "a")).isFalse();
    assertThat(NodeSelectors.termMatches(new NodeSelectorTerm(null, null), LABELS, "n1")).isFalse();
  }

  @Test
  void termMatches_nodeNameField() {
    NodeSelectorTerm in =
        new NodeSelectorTerm(
            null, List.of(new NodeSelectorRequirement("metadata.name", "In", List.of("n1"))));
    NodeSelectorTerm notIn =
        new NodeSelectorTerm(
            null, List.of(new NodeSelectorRequirement("metadata.name", "NotIn", List.of("n1"))));
    assertThat(NodeSelectors.termMatches(in, LABELS, "n1")).isTrue();
    assertThat(NodeSelectors.termMatches(notIn, LABELS, "n1")).isFalse();
  }

  @Test
  void requiredMatches_nodeSelectorAndRequiredTermsOred() {
    Node node = node("n1").label("zone", "a").label("disk", "ssd").build();
    assertThat(NodeSelectors.requiredMatches(pod("ns/p").nodeSelector("zone", "a").build(), node))
        .isTrue();
    assertThat(NodeSelectors.requiredMatches(pod("ns/p").nodeSelector("zone", "b").build(), node))
        .isFalse();
    assertThat(
            NodeSelectors.requiredMatches(
                pod("ns/p")
                    .requiredNodeAffinity("zone", "In", "b")
                    .requiredNodeAffinity("disk", "Exists")
                    .build(),
                node))
        .isTrue();
  }

  @Test
  void selector_nullMatchesNothingAndEmptyMatchesEverything() {
    assertThat(Selector.of(null).matches(Map.of())).isFalse();
    assertThat(Selector.of(null).isEmpty()).isFalse();
    Selector all = Selector.of(new LabelSelector(null, null));
    assertThat(all.matches(Map.of("x", "y"))).isTrue();
    assertThat(all.isEmpty()).isTrue();
    Selector web =
        Selector.of(
            new LabelSelector(
                Map.of("app", "web"),
                List.of(new LabelSelectorRequirement("tier", "NotIn", List.of("db")))));
    assertThat(web.matches(Map.of("app", "web"))).isTrue();
    assertThat(web.matches(Map.of("app", "web", "tier", "db"))).isFalse();
    assertThat(web.isEmpty()).isFalse();
    assertThat(all.with("app", "In", "web").matches(Map.of("app", "db"))).isFalse();
  }
}
