package dev.caldera.support.placement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SpreadConstraint;
import dev.caldera.api.placement.TopologyCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodPlacementsTest {

  private static final String ZONE = "topology.kubernetes.io/zone";

  /** A pod of {@code ns/name} with labels (key=value pairs) and the given terms. */
  private static final class PodSpec {
    private final String namespace;
    private final String name;
    private Map<String, String> labels = Map.of();
    private Map<String, String> nodeSelector = Map.of();
    private NodeAffinity nodeAffinity;
    private PodAffinity affinity;
    private PodAffinity antiAffinity;
    private final List<TopologySpreadConstraint> spread = new ArrayList<>();
    private Instant deleted;

    PodSpec(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }

    PodSpec labels(Map<String, String> labels) {
      this.labels = labels;
      return this;
    }

    PodSpec nodeSelector(Map<String, String> nodeSelector) {
      this.nodeSelector = nodeSelector;
      return this;
    }

    PodSpec nodeAffinity(NodeAffinity nodeAffinity) {
      this.nodeAffinity = nodeAffinity;
      return this;
    }

    PodSpec affinity(PodAffinityTerm... required) {
      this.affinity = new PodAffinity(List.of(required), null);
      return this;
    }

    PodSpec antiAffinity(PodAffinity antiAffinity) {
      this.antiAffinity = antiAffinity;
      return this;
    }

    PodSpec spread(TopologySpreadConstraint c) {
      spread.add(c);
      return this;
    }

    PodSpec deleted() {
      this.deleted = Instant.EPOCH;
      return this;
    }

    Pod build() {
      return new Pod(
          new ObjectMeta(name, namespace, null, null, deleted, labels, null, null),
          null,
          null,
          null,
          null,
          null,
          nodeSelector,
          nodeAffinity,
          affinity,
          antiAffinity,
          null,
          null,
          null,
          spread,
          null,
          null,
          null,
          null,
          null);
    }
  }

  private static PodSpec pod(String key) {
    String[] parts = key.split("/");
    return new PodSpec(parts[0], parts[1]);
  }

  private static LabelSelectorRequirement expr(String key, String op, String... values) {
    return new LabelSelectorRequirement(key, op, List.of(values));
  }

  private static LabelSelector selector(LabelSelectorRequirement... expressions) {
    return new LabelSelector(null, List.of(expressions));
  }

  private static PodAffinityTerm term(LabelSelector selector) {
    return new PodAffinityTerm(selector, null, ZONE, null, null, null);
  }

  private static NodeSelectorRequirement req(String key, String op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values));
  }

  private static NodeSelectorTerm nodeTerm(NodeSelectorRequirement... expressions) {
    return new NodeSelectorTerm(List.of(expressions), null);
  }

  private static NodeAffinity required(NodeSelectorTerm... terms) {
    return new NodeAffinity(List.of(terms), null);
  }

  private static TopologySpreadConstraint spread(String when, LabelSelector selector) {
    return new TopologySpreadConstraint(1, ZONE, when, selector, null, null, null, null);
  }

  @Nested
  class SelectorParsing {

    private final Map<String, String> web = Map.of("app", "web", "tier", "front");

    @ParameterizedTest
    @CsvSource({
      "app, In, web, true",
      "app, In, db, false",
      "app, NotIn, db, true",
      "app, NotIn, web, false",
      "rack, NotIn, web, true",
    })
    void inAndNotIn(String key, String op, String value, boolean matches) {
      assertThat(LabelSelectors.of(selector(expr(key, op, value))).matches(web)).isEqualTo(matches);
    }

    @Test
    void existsAndDoesNotExist() {
      assertThat(LabelSelectors.of(selector(expr("tier", "Exists"))).matches(web)).isTrue();
      assertThat(LabelSelectors.of(selector(expr("rack", "Exists"))).matches(web)).isFalse();
      assertThat(LabelSelectors.of(selector(expr("rack", "DoesNotExist"))).matches(web)).isTrue();
      assertThat(LabelSelectors.of(selector(expr("tier", "DoesNotExist"))).matches(web)).isFalse();
    }

    @Test
    void matchLabelsAndExpressionsAreAnded() {
      Selector s =
          LabelSelectors.of(
              new LabelSelector(Map.of("app", "web"), List.of(expr("tier", "In", "db"))));
      assertThat(s.matches(web)).isFalse();
      assertThat(s.matches(Map.of("app", "web", "tier", "db"))).isTrue();
    }

    @Test
    void nullSelectsNothing_emptySelectsEverything() {
      assertThat(LabelSelectors.of(null).matches(Map.of())).isFalse();
      assertThat(LabelSelectors.of(null).isNothing()).isTrue();
      assertThat(LabelSelectors.of(null).isEmpty()).isFalse();
      LabelSelectors all =
          LabelSelectors.parse(new LabelSelector(null, null), "labelSelector", null);
      assertThat(all.isEmpty()).isTrue();
      assertThat(all.matches(web)).isTrue();
      assertThat(LabelSelectors.NOTHING.with("app", "In", "web").matches(web)).isFalse();
      assertThat(all.with("app", "In", "db").matches(web)).isFalse();
    }

    @Test
    void ofLabels_requiresEveryLabel() {
      Selector s = LabelSelectors.ofLabels(Map.of("app", "web"));
      assertThat(s.matches(web)).isTrue();
      assertThat(s.matches(Map.of("app", "db"))).isFalse();
      assertThat(LabelSelectors.ofLabels(Map.of()).isEmpty()).isTrue();
    }
  }

  @Nested
  class PodAffinityTerms {

    private final Pod target = pod("team-a/t").labels(Map.of("app", "web")).build();

    @Test
    void noNamespacesAndNoSelector_meansTheOwnersNamespace() {
      AffinityTerm t =
          PodPlacements.of(
                  pod("team-a/p").affinity(term(selector(expr("app", "In", "web")))).build())
              .requiredAffinity()
              .get(0);
      assertThat(t.namespaces()).containsExactly("team-a");
      assertThat(t.topologyKey()).isEqualTo(ZONE);
      assertThat(t.matches(target, null)).isTrue();
      assertThat(t.matches(pod("team-b/t").labels(Map.of("app", "web")).build(), null)).isFalse();
    }

    @Test
    void namespaceList_coversTheListedNamespacesOnly() {
      PodAffinityTerm listed =
          new PodAffinityTerm(
              selector(expr("app", "Exists")), List.of("team-b"), ZONE, null, null, null);
      AffinityTerm t =
          PodPlacements.of(pod("team-a/p").affinity(listed).build()).requiredAffinity().get(0);
      assertThat(t.matches(target, Map.of())).isFalse();
      assertThat(t.matches(pod("team-b/t").labels(Map.of("app", "x")).build(), Map.of())).isTrue();
    }

    @Test
    void namespaceSelector_matchesTheTargetsNamespaceLabels_unknownNamespaceOnlyByMatchAll() {
      PodAffinityTerm bySelector =
          new PodAffinityTerm(
              selector(expr("app", "Exists")),
              null,
              ZONE,
              new LabelSelector(Map.of("env", "prod"), null),
              null,
              null);
      AffinityTerm t =
          PodPlacements.of(pod("team-x/p").affinity(bySelector).build()).requiredAffinity().get(0);
      assertThat(t.matches(target, Map.of("env", "prod"))).isTrue();
      assertThat(t.matches(target, Map.of("env", "dev"))).isFalse();
      assertThat(t.matches(target, null)).isFalse();

      PodAffinityTerm everyNamespace =
          new PodAffinityTerm(
              selector(expr("app", "Exists")),
              null,
              ZONE,
              new LabelSelector(null, null),
              null,
              null);
      AffinityTerm all =
          PodPlacements.of(pod("team-x/p").affinity(everyNamespace).build())
              .requiredAffinity()
              .get(0);
      assertThat(all.matches(target, null)).isTrue();
    }

    @Test
    void resolveNamespaces_mergesTheSelectedNamespacesIntoTheList() {
      PodAffinityTerm bySelector =
          new PodAffinityTerm(
              selector(expr("app", "Exists")),
              List.of("team-c"),
              ZONE,
              new LabelSelector(Map.of("env", "prod"), null),
              null,
              null);
      AffinityTerm t =
          PodPlacements.of(pod("team-x/p").affinity(bySelector).build())
              .requiredAffinity()
              .get(0)
              .resolveNamespaces(
                  List.of(
                      new Namespace(
                          new ObjectMeta(
                              "team-a", "", null, null, null, Map.of("env", "prod"), null, null)),
                      new Namespace(
                          new ObjectMeta(
                              "team-b", "", null, null, null, Map.of("env", "dev"), null, null))));
      assertThat(t.namespaces()).containsExactlyInAnyOrder("team-a", "team-c");
      assertThat(t.namespaceSelector().isNothing()).isTrue();
      assertThat(t.matches(target, Map.of("env", "prod"))).isTrue();
      assertThat(
              t.matches(
                  pod("team-b/t").labels(Map.of("app", "web")).build(), Map.of("env", "prod")))
          .isFalse();
    }

    @Test
    void matchLabelKeysAndMismatchLabelKeys_takeTheOwnersValues() {
      PodAffinityTerm withKeys =
          new PodAffinityTerm(
              selector(expr("app", "Exists")),
              null,
              ZONE,
              null,
              List.of("version", "absent"),
              List.of("tenant"));
      AffinityTerm t =
          PodPlacements.of(
                  pod("ns/p")
                      .labels(Map.of("version", "v2", "tenant", "blue"))
                      .affinity(withKeys)
                      .build())
              .requiredAffinity()
              .get(0);
      assertThat(t.matches(pod("ns/a").labels(Map.of("app", "x", "version", "v2")).build(), null))
          .isTrue();
      assertThat(t.matches(pod("ns/b").labels(Map.of("app", "x", "version", "v1")).build(), null))
          .isFalse();
      assertThat(
              t.matches(
                  pod("ns/c").labels(Map.of("app", "x", "version", "v2", "tenant", "blue")).build(),
                  null))
          .isFalse();
    }

    @Test
    void matchLabelKeys_leaveANullSelectorSelectingNothing() {
      PodAffinityTerm noSelector =
          new PodAffinityTerm(null, null, ZONE, null, List.of("version"), null);
      AffinityTerm t =
          PodPlacements.of(pod("ns/p").labels(Map.of("version", "v2")).affinity(noSelector).build())
              .requiredAffinity()
              .get(0);
      assertThat(t.matches(pod("ns/a").labels(Map.of("version", "v2")).build(), null)).isFalse();
    }

    @Test
    void preferredTerms_keepTheirWeights() {
      PodAffinity anti =
          new PodAffinity(
              null,
              List.of(
                  new WeightedPodAffinityTerm(30, term(selector(expr("app", "In", "web")))),
                  new WeightedPodAffinityTerm(5, null)));
      PodPlacement p = PodPlacements.of(pod("ns/p").antiAffinity(anti).build());
      assertThat(p.preferredAntiAffinity()).extracting(AffinityTerm::weight).containsExactly(30);
      assertThat(p.hasPreferredPodTerms()).isTrue();
      assertThat(p.requiredAntiAffinity()).isEmpty();
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1]"
                  + ".podAffinityTerm: expected a pod affinity term, got none");
    }
  }

  @Nested
  class NodeSelectionParsing {

    private final Map<String, String> labels = Map.of("zone", "a", "cores", "16");

    private boolean matches(NodeSelectorRequirement r) {
      return PodPlacements.of(pod("ns/p").nodeAffinity(required(nodeTerm(r))).build())
          .requiredNodes()
          .matches(labels, "n1");
    }

    @Test
    void labelOperators() {
      assertThat(matches(req("zone", "In", "a", "b"))).isTrue();
      assertThat(matches(req("zone", "In", "b"))).isFalse();
      assertThat(matches(req("zone", "NotIn", "b"))).isTrue();
      assertThat(matches(req("rack", "NotIn", "b"))).isTrue();
      assertThat(matches(req("zone", "Exists"))).isTrue();
      assertThat(matches(req("rack", "DoesNotExist"))).isTrue();
      assertThat(matches(req("cores", "Gt", "8"))).isTrue();
      assertThat(matches(req("cores", "Lt", "8"))).isFalse();
      assertThat(matches(req("zone", "Gt", "8"))).isFalse();
    }

    @Test
    void invalidRequirementsMatchNothing() {
      assertThat(matches(req("zone", "In"))).isFalse();
      assertThat(matches(req("rack", "NotIn"))).isFalse();
      assertThat(matches(req("zone", "Exists", "a"))).isFalse();
      assertThat(matches(req("cores", "Gt", "8", "9"))).isFalse();
      assertThat(matches(req("cores", "Gt", "eight"))).isFalse();
      assertThat(matches(req("zone", "Like", "a"))).isFalse();
    }

    @Test
    void anInvalidTermMatchesNothingWhileTheOtherTermsCount() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p")
                  .nodeAffinity(
                      required(
                          nodeTerm(req("zone", "Like", "a")), nodeTerm(req("zone", "In", "a"))))
                  .build());
      assertThat(p.requiredNodes().matches(labels, "n1")).isTrue();
      assertThat(p.requiredNodes().matches(Map.of("zone", "b"), "n1")).isFalse();
    }

    @Test
    void nodeSelectorAndRequiredTermsBothApply_emptyTermsSelectNothing() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p")
                  .nodeSelector(Map.of("zone", "a"))
                  .nodeAffinity(required(nodeTerm(req("cores", "Exists"))))
                  .build());
      assertThat(p.requiredNodes().matches(labels, "n1")).isTrue();
      assertThat(p.requiredNodes().matches(Map.of("zone", "a"), "n1")).isFalse();
      assertThat(PodPlacements.of(pod("ns/p").build()).requiredNodes().isEmpty()).isTrue();
      PodPlacement emptyTerm =
          PodPlacements.of(
              pod("ns/p").nodeAffinity(required(new NodeSelectorTerm(null, null))).build());
      assertThat(emptyTerm.requiredNodes().matches(labels, "n1")).isFalse();
    }

    @Test
    void nodeNameFields_andTheirConflict() {
      NodeSelectorTerm n1 = new NodeSelectorTerm(null, List.of(req("metadata.name", "In", "n1")));
      NodeSelectorTerm notN1 =
          new NodeSelectorTerm(null, List.of(req("metadata.name", "NotIn", "n1")));
      assertThat(
              PodPlacements.of(pod("ns/p").nodeAffinity(required(n1)).build())
                  .requiredNodes()
                  .matches(labels, "n1"))
          .isTrue();
      assertThat(
              PodPlacements.of(pod("ns/p").nodeAffinity(required(notN1)).build())
                  .requiredNodes()
                  .matches(labels, "n1"))
          .isFalse();
      NodeSelectorTerm both =
          new NodeSelectorTerm(
              null, List.of(req("metadata.name", "In", "n1"), req("metadata.name", "In", "n2")));
      assertThat(
              PodPlacements.of(pod("ns/p").nodeAffinity(required(both)).build())
                  .nodeNamesConflict())
          .isTrue();
      assertThat(
              PodPlacements.of(pod("ns/p").nodeAffinity(required(n1)).build()).nodeNamesConflict())
          .isFalse();
    }

    @Test
    void preferredTerms_keepWeightAndDropZeroWeights() {
      NodeAffinity preferred =
          new NodeAffinity(
              null,
              List.of(
                  new PreferredSchedulingTerm(7, nodeTerm(req("zone", "In", "a"))),
                  new PreferredSchedulingTerm(0, nodeTerm(req("zone", "In", "a")))));
      PodPlacement p = PodPlacements.of(pod("ns/p").nodeAffinity(preferred).build());
      assertThat(p.requiredNodes().isEmpty()).isTrue();
      assertThat(p.preferredNodeTerms()).hasSize(1);
      assertThat(p.preferredNodeTerms().get(0).weight()).isEqualTo(7);
      assertThat(p.preferredNodeTerms().get(0).term().matches(labels, "n1")).isTrue();
      assertThat(p.preferredNodeTerms().get(0).term().matches(Map.of("zone", "b"), "n1")).isFalse();
    }
  }

  @Nested
  class SpreadParsing {

    @Test
    void splitIntoHardAndSoft_withDefaults() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p")
                  .labels(Map.of("app", "web"))
                  .spread(spread("DoNotSchedule", selector(expr("app", "Exists"))))
                  .spread(spread("ScheduleAnyway", selector(expr("app", "Exists"))))
                  .build());
      SpreadConstraint hard = p.hardSpread().get(0);
      assertThat(hard.hard()).isTrue();
      assertThat(hard.minDomains()).isEqualTo(1);
      assertThat(hard.honorNodeAffinity()).isTrue();
      assertThat(hard.honorNodeTaints()).isFalse();
      assertThat(hard.selects(Map.of("app", "web"))).isTrue();
      assertThat(p.softSpread()).hasSize(1);
      assertThat(p.softSpread().get(0).hard()).isFalse();
      assertThat(p.problems()).isEmpty();
    }

    @Test
    void policiesAndMinDomains() {
      TopologySpreadConstraint c =
          new TopologySpreadConstraint(
              2,
              ZONE,
              "DoNotSchedule",
              selector(expr("app", "Exists")),
              3,
              "Ignore",
              "Honor",
              null);
      SpreadConstraint parsed = PodPlacements.of(pod("ns/p").spread(c).build()).hardSpread().get(0);
      assertThat(parsed.maxSkew()).isEqualTo(2);
      assertThat(parsed.minDomains()).isEqualTo(3);
      assertThat(parsed.honorNodeAffinity()).isFalse();
      assertThat(parsed.honorNodeTaints()).isTrue();
    }

    @Test
    void matchLabelKeys_andWhatCounts() {
      TopologySpreadConstraint c =
          new TopologySpreadConstraint(
              1,
              ZONE,
              "DoNotSchedule",
              selector(expr("app", "Exists")),
              null,
              null,
              null,
              List.of("version"));
      SpreadConstraint parsed =
          PodPlacements.of(
                  pod("ns/p").labels(Map.of("app", "w", "version", "v2")).spread(c).build())
              .hardSpread()
              .get(0);
      assertThat(
              parsed.counts(pod("ns/a").labels(Map.of("app", "w", "version", "v2")).build(), "ns"))
          .isTrue();
      assertThat(
              parsed.counts(pod("ns/b").labels(Map.of("app", "w", "version", "v1")).build(), "ns"))
          .isFalse();
      assertThat(
              parsed.counts(
                  pod("other/c").labels(Map.of("app", "w", "version", "v2")).build(), "ns"))
          .isFalse();
      assertThat(
              parsed.counts(
                  pod("ns/d").labels(Map.of("app", "w", "version", "v2")).deleted().build(), "ns"))
          .isFalse();
    }

    @Test
    void includes_followsTheNodeInclusionPolicies() {
      Node zoneA = node(Map.of("zone", "a"), new Taint("gpu", "", "NoSchedule"));
      Node zoneB = node(Map.of("zone", "b"));
      TopologySpreadConstraint honorBoth =
          new TopologySpreadConstraint(
              1, ZONE, "DoNotSchedule", selector(expr("app", "Exists")), null, null, "Honor", null);
      TopologySpreadConstraint ignoreBoth =
          new TopologySpreadConstraint(
              1,
              ZONE,
              "DoNotSchedule",
              selector(expr("app", "Exists")),
              null,
              "Ignore",
              null,
              null);
      PodPlacement onlyZoneB =
          PodPlacements.of(
              pod("ns/p")
                  .nodeSelector(Map.of("zone", "b"))
                  .spread(honorBoth)
                  .spread(ignoreBoth)
                  .build());
      PodPlacement anywhere = PodPlacements.of(pod("ns/q").spread(honorBoth).build());

      assertThat(onlyZoneB.hardSpread().get(0).includes(onlyZoneB, zoneA)).isFalse();
      assertThat(onlyZoneB.hardSpread().get(0).includes(onlyZoneB, zoneB)).isTrue();
      assertThat(onlyZoneB.hardSpread().get(1).includes(onlyZoneB, zoneA)).isTrue();
      assertThat(anywhere.hardSpread().get(0).includes(anywhere, zoneA)).isFalse();
      assertThat(SpreadConstraints.hasUntoleratedTaint(zoneA.taints(), List.of())).isTrue();
      assertThat(
              SpreadConstraints.hasUntoleratedTaint(
                  zoneA.taints(), List.of(new Toleration("gpu", "Exists", "", "", null))))
          .isFalse();
    }

    private Node node(Map<String, String> labels, Taint... taints) {
      return new Node(
          new ObjectMeta("n", "", null, null, null, labels, null, null),
          false,
          List.of(taints),
          Map.of(),
          null,
          null);
    }

    @Test
    void anEmptySelectorCountsNoExistingPodButSelectsTheOwner() {
      SpreadConstraint parsed =
          PodPlacements.of(
                  pod("ns/p")
                      .spread(spread("DoNotSchedule", new LabelSelector(null, null)))
                      .build())
              .hardSpread()
              .get(0);
      assertThat(parsed.counts(pod("ns/a").build(), "ns")).isFalse();
      assertThat(parsed.selects(Map.of())).isTrue();
    }
  }

  @Nested
  class BadInput {

    @Test
    void aValidPodHasNoProblems() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p")
                  .nodeAffinity(required(nodeTerm(req("zone", "In", "a"))))
                  .affinity(term(selector(expr("app", "In", "web"))))
                  .spread(spread("ScheduleAnyway", selector(expr("app", "Exists"))))
                  .build());
      assertThat(p.problems()).isEmpty();
    }

    @Test
    void anUnknownSelectorOperator_isOneErrorNamingPodAndField_andTheTermSelectsNothing() {
      PodPlacement p =
          PodPlacements.of(
              pod("team-a/web-0").affinity(term(selector(expr("app", "Like", "web")))).build());
      assertThat(p.problems())
          .containsExactly(
              "pod team-a/web-0: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
                  + ".labelSelector.matchExpressions[0].operator: expected one of In, NotIn, Exists,"
                  + " DoesNotExist, got \"Like\"");
      assertThat(
              p.requiredAffinity()
                  .get(0)
                  .matches(pod("team-a/t").labels(Map.of("app", "web")).build(), null))
          .isFalse();
    }

    @Test
    void selectorValuesThatDoNotFitTheOperator() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p")
                  .affinity(term(selector(expr("app", "In"), expr("tier", "Exists", "x"))))
                  .build());
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
                  + ".labelSelector.matchExpressions[0].values: expected at least one value for In,"
                  + " got none",
              "pod ns/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
                  + ".labelSelector.matchExpressions[1].values: expected no values for Exists, got [x]");
    }

    @Test
    void aBadNodeSelectorRequirementNamesItsTermAndIndex() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p")
                  .nodeAffinity(
                      required(
                          nodeTerm(req("zone", "In", "a")), nodeTerm(req("cores", "Gt", "lots"))))
                  .build());
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                  + ".nodeSelectorTerms[1].matchExpressions[0].values: expected one integer for Gt,"
                  + " got [lots]");
    }

    @Test
    void aBadFieldKeyIsReported() {
      NodeSelectorTerm byHost = new NodeSelectorTerm(null, List.of(req("spec.host", "In", "n1")));
      PodPlacement p = PodPlacements.of(pod("ns/p").nodeAffinity(required(byHost)).build());
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                  + ".nodeSelectorTerms[0].matchFields[0].key: expected metadata.name, got"
                  + " \"spec.host\"");
    }

    @Test
    void aMissingTopologyKeyIsReportedAndNoNodeHasIt() {
      PodAffinityTerm noKey =
          new PodAffinityTerm(selector(expr("app", "Exists")), null, null, null, null, null);
      PodPlacement p = PodPlacements.of(pod("ns/p").affinity(noKey).build());
      assertThat(p.requiredAffinity().get(0).topologyKey()).isEmpty();
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
                  + ".topologyKey: expected a node label key, got none");
    }

    @Test
    void anUnknownWhenUnsatisfiableLeavesTheConstraintOut() {
      PodPlacement p =
          PodPlacements.of(
              pod("ns/p").spread(spread("Sometimes", selector(expr("app", "Exists")))).build());
      assertThat(p.hardSpread()).isEmpty();
      assertThat(p.softSpread()).isEmpty();
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.topologySpreadConstraints[0].whenUnsatisfiable: expected DoNotSchedule"
                  + " or ScheduleAnyway, got \"Sometimes\"");
    }

    @Test
    void anUnknownNodeInclusionPolicyIsReportedAndNotHonoured() {
      TopologySpreadConstraint c =
          new TopologySpreadConstraint(
              1,
              ZONE,
              "DoNotSchedule",
              selector(expr("app", "Exists")),
              null,
              "Always",
              null,
              null);
      PodPlacement p = PodPlacements.of(pod("ns/p").spread(c).build());
      assertThat(p.hardSpread().get(0).honorNodeAffinity()).isFalse();
      assertThat(p.problems())
          .containsExactly(
              "pod ns/p: spec.topologySpreadConstraints[0].nodeAffinityPolicy: expected Honor or"
                  + " Ignore, got \"Always\"");
    }
  }

  @Nested
  class Counts {

    @Test
    void aPairBackAtZeroIsGone() {
      TopologyCounts counts = new PairCounts();
      counts.add(ZONE, Map.of(ZONE, "a"), 2);
      counts.add(ZONE, Map.of("other", "x"), 5);
      assertThat(counts.get(ZONE, "a")).isEqualTo(2);
      assertThat(counts.anyPositive(Map.of(ZONE, "a"))).isTrue();
      assertThat(counts.anyPositive(Map.of(ZONE, "b"))).isFalse();
      counts.add(ZONE, "a", -2);
      assertThat(counts.isEmpty()).isTrue();
    }

    @Test
    void sumAddsTheNodesPairs_andACopyIsIndependent() {
      TopologyCounts counts = new PairCounts();
      counts.add(ZONE, "a", 3);
      counts.add("host", "n1", -1);
      TopologyCounts copy = counts.copy();
      copy.add(ZONE, "a", 10);
      assertThat(counts.sum(Map.of(ZONE, "a", "host", "n1"))).isEqualTo(2);
      assertThat(copy.sum(Map.of(ZONE, "a", "host", "n1"))).isEqualTo(12);
      assertThat(counts.sum(Map.of("host", "n2"))).isZero();
    }
  }
}
