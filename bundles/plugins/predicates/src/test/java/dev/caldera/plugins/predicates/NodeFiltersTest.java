package dev.caldera.plugins.predicates;

import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Toleration;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NodeUnschedulable, NodeAffinity and TaintToleration: the stable filters. */
class NodeFiltersTest extends PredicatesFixture {

  private static final String UNSCHEDULABLE = "node(s) were unschedulable";
  private static final String AFFINITY = "node(s) didn't match Pod's node affinity/selector";
  private static final String TAINTS = "node(s) had untolerated taint(s)";

  private static PredicatesArguments with(String key, boolean value) {
    return PredicatesArguments.from(new PluginArguments("predicates", Map.of(key, value), false));
  }

  // ------------------------------------------------------------ NodeUnschedulable

  @Test
  void unschedulable_rejectsACordonedNode() {
    FakeNode n1 = node("n1").unschedulable(true);

    assertFails(check(pod("p"), n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, UNSCHEDULABLE);
  }

  @Test
  void unschedulable_isToleratedByTheUnschedulableTaintToleration() {
    FakeNode n1 = node("n1").unschedulable(true);
    FakeTask byKey =
        pod("by-key")
            .toleration(
                new Toleration(
                    "node.kubernetes.io/unschedulable", "Exists", null, "NoSchedule", null));
    FakeTask everything =
        pod("everything").toleration(new Toleration(null, "Exists", null, null, null));
    FakeTask wrongEffect =
        pod("wrong-effect")
            .toleration(
                new Toleration(
                    "node.kubernetes.io/unschedulable", "Exists", null, "NoExecute", null));

    assertPasses(check(byKey, n1));
    assertPasses(check(everything, n1));
    assertFails(check(wrongEffect, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, UNSCHEDULABLE);
  }

  @Test
  void unschedulable_isCheckedEvenWithEveryFilterDisabled() {
    arguments =
        PredicatesArguments.from(
            new PluginArguments(
                "predicates",
                Map.of(
                    PredicatesArguments.NODE_AFFINITY, false,
                    PredicatesArguments.TAINT_TOLERATION, false,
                    PredicatesArguments.NODE_PORTS, false,
                    PredicatesArguments.POD_AFFINITY, false,
                    PredicatesArguments.POD_TOPOLOGY_SPREAD, false),
                false));
    FakeNode n1 = node("n1").unschedulable(true);

    assertFails(check(pod("p"), n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, UNSCHEDULABLE);
  }

  @Test
  void stableFailure_stopsBeforeTheLaterFilters() {
    FakeNode n1 = node("n1").taint("k", "v", "NoSchedule");
    running("a", n1).hostPort(80).label("app", "web");
    FakeTask p = pod("p").hostPort(80).requiredPodAntiAffinity(HOSTNAME, "app", "web");

    assertFails(check(p, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, TAINTS);
  }

  // ------------------------------------------------------------ NodeAffinity

  @Test
  void nodeSelector_requiresEveryLabel() {
    FakeNode both = node("both").label("disk", "ssd").label("gpu", "a100");
    FakeNode one = node("one").label("disk", "ssd");
    FakeTask p = pod("p").nodeSelector("disk", "ssd").nodeSelector("gpu", "a100");

    assertPasses(check(p, both));
    assertFails(check(p, one), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void requiredAffinity_operatorsOnLabels() {
    FakeNode n1 = node("n1").label("zone", "a").label("cores", "16");

    assertPasses(check(pod("in").requiredNodeAffinity("zone", "In", "a", "b"), n1));
    assertFails(
        check(pod("in-miss").requiredNodeAffinity("zone", "In", "b"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
    assertPasses(check(pod("notin").requiredNodeAffinity("zone", "NotIn", "b"), n1));
    assertPasses(check(pod("notin-absent").requiredNodeAffinity("rack", "NotIn", "r1"), n1));
    assertFails(
        check(pod("notin-miss").requiredNodeAffinity("zone", "NotIn", "a"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
    assertPasses(check(pod("exists").requiredNodeAffinity("zone", "Exists"), n1));
    assertFails(
        check(pod("exists-miss").requiredNodeAffinity("rack", "Exists"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
    assertPasses(check(pod("dne").requiredNodeAffinity("rack", "DoesNotExist"), n1));
    assertFails(
        check(pod("dne-miss").requiredNodeAffinity("zone", "DoesNotExist"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
  }

  @Test
  void requiredAffinity_gtAndLtCompareIntegers() {
    FakeNode n1 = node("n1").label("cores", "16").label("name", "big");

    assertPasses(check(pod("gt").requiredNodeAffinity("cores", "Gt", "8"), n1));
    assertFails(
        check(pod("gt-equal").requiredNodeAffinity("cores", "Gt", "16"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
    assertPasses(check(pod("lt").requiredNodeAffinity("cores", "Lt", "32"), n1));
    assertFails(
        check(pod("lt-miss").requiredNodeAffinity("cores", "Lt", "9"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
    assertFails(
        check(pod("gt-text-label").requiredNodeAffinity("name", "Gt", "1"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
    assertFails(
        check(pod("gt-absent").requiredNodeAffinity("memory", "Gt", "1"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        AFFINITY);
  }

  @Test
  void requiredAffinity_termsAreOredAndAnUnparsableTermNeverMatches() {
    FakeNode n1 = node("n1").label("zone", "a");
    FakeTask orTerms =
        pod("or").requiredNodeAffinity("zone", "In", "x").requiredNodeAffinity("zone", "In", "a");
    FakeTask badThenGood =
        pod("bad")
            .requiredNodeAffinity("zone", "Gt", "not-a-number")
            .requiredNodeAffinity("zone", "Exists");
    FakeTask onlyBad = pod("only-bad").requiredNodeAffinity("zone", "In");

    assertPasses(check(orTerms, n1));
    assertPasses(check(badThenGood, n1));
    assertFails(check(onlyBad, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void requiredAffinity_expressionsOfATermAreAnded() {
    FakeNode n1 = node("n1").label("zone", "a").label("disk", "hdd");
    FakeTask p =
        pod("p")
            .nodeAffinity(
                new NodeAffinity(
                    List.of(
                        new NodeSelectorTerm(
                            List.of(req("zone", "In", "a"), req("disk", "In", "ssd")), null)),
                    null));

    assertFails(check(p, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void requiredAffinity_matchFieldsOnTheNodeName() {
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    FakeTask onN1 = pod("on-n1").nodeAffinity(fields(req("metadata.name", "In", "n1")));
    FakeTask notN1 = pod("not-n1").nodeAffinity(fields(req("metadata.name", "NotIn", "n1")));

    assertPasses(check(onN1, n1));
    assertFails(check(onN1, n2), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertFails(check(notN1, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertPasses(check(notN1, n2));
  }

  @Test
  void requiredAffinity_aFieldWithSeveralValuesNeverMatches() {
    FakeNode n1 = node("n1");
    FakeTask p = pod("p").nodeAffinity(fields(req("metadata.name", "In", "n1", "n2")));

    assertFails(check(p, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void requiredAffinity_withNoTermsSelectsNoNode() {
    FakeNode n1 = node("n1");
    FakeTask p = pod("p").nodeAffinity(new NodeAffinity(List.of(), null));

    assertFails(check(p, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void requiredAffinity_conflictingNodeNamesFailThePrePredicate() {
    node("n1");
    FakeTask p =
        pod("p")
            .nodeAffinity(
                new NodeAffinity(
                    List.of(
                        new NodeSelectorTerm(
                            null,
                            List.of(
                                req("metadata.name", "In", "n1"),
                                req("metadata.name", "In", "n2")))),
                    null));

    assertFails(
        prePredicate(p),
        Code.ERROR,
        "plugin NodeAffinity pre-predicates failed pod affinity terms conflict");
  }

  @Test
  void preferredAffinityAlone_doesNotFilter() {
    FakeNode n1 = node("n1");

    assertPasses(check(pod("p").preferredNodeAffinity(10, "zone", "In", "x"), n1));
  }

  @Test
  void nodeAffinity_disabledLetsEveryNodePass() {
    arguments = with(PredicatesArguments.NODE_AFFINITY, false);
    FakeNode n1 = node("n1");

    assertPasses(check(pod("p").nodeSelector("disk", "ssd"), n1));
  }

  // ------------------------------------------------------------ TaintToleration

  @Test
  void taints_noScheduleAndNoExecuteMustBeTolerated() {
    FakeNode noSchedule = node("n1").taint("dedicated", "gpu", "NoSchedule");
    FakeNode noExecute = node("n2").taint("dedicated", "gpu", "NoExecute");
    FakeNode prefer = node("n3").taint("dedicated", "gpu", "PreferNoSchedule");

    assertFails(check(pod("a"), noSchedule), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, TAINTS);
    assertFails(check(pod("b"), noExecute), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, TAINTS);
    assertPasses(check(pod("c"), prefer));
  }

  @Test
  void taints_toleratedByEqualOrExistsWithAMatchingEffect() {
    FakeNode n1 = node("n1").taint("dedicated", "gpu", "NoSchedule");

    assertPasses(check(pod("equal").tolerates("dedicated", "gpu", "NoSchedule"), n1));
    assertPasses(check(pod("any-effect").tolerates("dedicated", "gpu", ""), n1));
    assertPasses(
        check(
            pod("exists").toleration(new Toleration("dedicated", "Exists", null, null, null)), n1));
    assertFails(
        check(pod("other-value").tolerates("dedicated", "cpu", "NoSchedule"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        TAINTS);
    assertFails(
        check(pod("other-effect").tolerates("dedicated", "gpu", "NoExecute"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        TAINTS);
  }

  @Test
  void taints_everyTaintMustBeTolerated() {
    FakeNode n1 = node("n1").taint("a", "1", "NoSchedule").taint("b", "2", "NoSchedule");

    assertFails(
        check(pod("p").tolerates("a", "1", "NoSchedule"), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        TAINTS);
  }

  @Test
  void taints_disabledLetsTaintedNodesPass() {
    arguments = with(PredicatesArguments.TAINT_TOLERATION, false);
    FakeNode n1 = node("n1").taint("dedicated", "gpu", "NoSchedule");

    assertPasses(check(pod("p"), n1));
  }

  private static NodeSelectorRequirement req(String key, String op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values));
  }

  private static NodeAffinity fields(NodeSelectorRequirement... fields) {
    return new NodeAffinity(List.of(new NodeSelectorTerm(null, List.of(fields))), null);
  }
}
