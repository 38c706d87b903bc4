package dev.caldera.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterPodAffinityTest extends PredicatesFixture {

  private static final String AFFINITY = "node(s) didn't match pod affinity rules";
  private static final String ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
  private static final String EXISTING = "node(s) didn't satisfy existing pods anti-affinity rules";

  // ------------------------------------------------------------ the pod's affinity

  @Test
  void affinity_passesInTheTopologyOfAMatchingPodOnly() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "a");
    FakeNode n3 = node("n3").label(ZONE, "b");
    running("db", n1).label("app", "db");
    FakeTask p = pod("p").requiredPodAffinity(ZONE, "app", "db");

    assertPasses(check(p, n1));
    assertPasses(check(p, n2));
    assertFails(check(p, n3), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void affinity_failsOnANodeWithoutTheTopologyKey() {
    FakeNode labelled = node("n1").label(ZONE, "a");
    FakeNode bare = node("n2");
    running("db", labelled).label("app", "db");
    FakeTask p = pod("p").requiredPodAffinity(ZONE, "app", "db");

    assertFails(check(p, bare), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void affinity_theFirstPodOfAGroupMayPlaceItself() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode bare = node("n2");
    FakeTask first = pod("first").label("app", "web").requiredPodAffinity(ZONE, "app", "web");
    FakeTask notSelf = pod("not-self").label("app", "db").requiredPodAffinity(ZONE, "app", "web");

    assertPasses(check(first, n1));
    assertFails(check(first, bare), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertFails(check(notSelf, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void affinity_theFirstPodRuleEndsOnceAMatchingPodExistsElsewhere() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "b");
    running("web-0", n2).label("app", "web");
    FakeTask next = pod("next").label("app", "web").requiredPodAffinity(ZONE, "app", "web");

    assertFails(check(next, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertPasses(check(next, n2));
  }

  @Test
  void affinity_onlyCountsPodsOfTheListedNamespaces() {
    FakeNode n1 = node("n1");
    running("other/db", n1).label("app", "db");
    FakeTask sameNamespace = pod("p").requiredPodAffinity(HOSTNAME, "app", "db");
    FakeTask listed =
        pod("q")
            .podAffinity(
                new PodAffinity(
                    List.of(
                        new PodAffinityTerm(
                            selector("app", "db"), List.of("other"), HOSTNAME, null, null, null)),
                    null));

    assertFails(check(sameNamespace, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertPasses(check(listed, n1));
  }

  @Test
  void affinity_namespaceSelectorPicksNamespacesByLabel() {
    session.cluster(
        new ClusterInfo(
            null,
            null,
            null,
            List.of(namespace("team-a", "team", "a"), namespace("team-b", "team", "b")),
            null));
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    running("team-a/db", n1).label("app", "db");
    running("team-b/db", n2).label("app", "db");
    FakeTask teamA = pod("p").podAffinity(nsSelectorAffinity(selector("team", "a")));
    FakeTask all = pod("q").podAffinity(nsSelectorAffinity(new LabelSelector(null, null)));

    assertPasses(check(teamA, n1));
    assertFails(check(teamA, n2), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertPasses(check(all, n2));
  }

  @Test
  void affinity_matchLabelKeysNarrowTheSelectorToThePodsValue() {
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    running("v1", n1).label("app", "web").label("version", "1");
    running("v2", n2).label("app", "web").label("version", "2");
    FakeTask p =
        pod("p")
            .label("version", "2")
            .podAffinity(
                new PodAffinity(
                    List.of(
                        new PodAffinityTerm(
                            selector("app", "web"),
                            null,
                            HOSTNAME,
                            null,
                            List.of("version"),
                            null)),
                    null));

    assertFails(check(p, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    assertPasses(check(p, n2));
  }

  // ------------------------------------------------------------ anti-affinity

  @Test
  void antiAffinity_rejectsTheTopologyOfAMatchingPod() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    FakeNode n2 = node("n2").label(ZONE, "a");
    FakeNode n3 = node("n3").label(ZONE, "b");
    running("web", n1).label("app", "web");
    FakeTask p = pod("p").requiredPodAntiAffinity(ZONE, "app", "web");

    assertFails(check(p, n1), Code.UNSCHEDULABLE, ANTI_AFFINITY);
    assertFails(check(p, n2), Code.UNSCHEDULABLE, ANTI_AFFINITY);
    assertPasses(check(p, n3));
  }

  @Test
  void existingAntiAffinity_rejectsTheTopologyOfThePodThatRefuses() {
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    running("loner", n1).requiredPodAntiAffinity(HOSTNAME, "app", "web");
    FakeTask web = pod("web").label("app", "web");
    FakeTask db = pod("db").label("app", "db");
    FakeTask otherNamespace = pod("other/web").label("app", "web");

    assertFails(check(web, n1), Code.UNSCHEDULABLE, EXISTING);
    assertPasses(check(web, n2));
    assertPasses(check(db, n1));
    assertPasses(check(otherNamespace, n1));
  }

  @Test
  void existingAntiAffinity_countsAnAllocatedPodAtOnceAndForgetsAnEvictedOne() {
    FakeNode n1 = node("n1");
    FakeTask web = pod("web").label("app", "web");
    assertPasses(check(web, n1));

    FakeTask loner =
        pod("loner").requiredPodAntiAffinity(HOSTNAME, "app", "web").status(TaskStatus.ALLOCATED);
    loner.on(n1);
    events().allocated(loner);
    assertFails(check(web, n1), Code.UNSCHEDULABLE, EXISTING);

    session.evict(loner);
    events().deallocated(loner);
    assertPasses(check(web, n1));

    session.undoEvict(loner);
    events().allocated(loner);
    assertFails(check(web, n1), Code.UNSCHEDULABLE, EXISTING);
  }

  @Test
  void antiAffinity_failureDoesNotStopTheSpreadCheck_affinityFailureDoes() {
    FakeNode n1 = node("n1").label(ZONE, "a");
    node("n2").label(ZONE, "b");
    running("web-0", n1).label("app", "web");
    running("web-1", n1).label("app", "web");
    FakeTask anti =
        pod("anti")
            .label("app", "web")
            .requiredPodAntiAffinity(HOSTNAME, "app", "web")
            .spread(1, ZONE, "DoNotSchedule", "app", "web");
    FakeTask affine =
        pod("affine")
            .label("app", "web")
            .requiredPodAffinity(HOSTNAME, "app", "db")
            .spread(1, ZONE, "DoNotSchedule", "app", "web");

    assertFails(
        check(anti, n1),
        Code.UNSCHEDULABLE,
        ANTI_AFFINITY,
        "node(s) didn't match pod topology spread constraints");
    assertFails(check(affine, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
  }

  @Test
  void disabled_ignoresAffinity() {
    arguments =
        PredicatesArguments.from(
            new PluginArguments(
                "predicates", Map.of(PredicatesArguments.POD_AFFINITY, false), false));
    FakeNode n1 = node("n1");
    running("loner", n1).requiredPodAntiAffinity(HOSTNAME, "app", "web");

    assertPasses(check(pod("web").label("app", "web").requiredPodAffinity(ZONE, "app", "x"), n1));
  }

  // ------------------------------------------------------------ simulations

  @Test
  void simulation_removingTheConflictingPodFromACopyLetsThePodFit() {
    FakeNode n1 = node("n1");
    FakeTask quiet = running("quiet", n1);
    FakeTask noisy = running("noisy", n1).label("test", "test");
    FakeTask preemptor =
        pod("preemptor").label("test", "test").requiredPodAntiAffinity(HOSTNAME, "test", "test");
    assertFails(check(preemptor, n1), Code.UNSCHEDULABLE, ANTI_AFFINITY);
    CycleState original = session.cycleState(preemptor);
    CycleState copy = original.copy();

    assertPasses(
        extensions().get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(copy, preemptor, quiet, n1));
    assertFails(simulate(copy, preemptor, n1), Code.UNSCHEDULABLE, ANTI_AFFINITY);
    assertPasses(
        extensions().get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(copy, preemptor, noisy, n1));
    assertPasses(simulate(copy, preemptor, n1));
    assertFails(simulate(original, preemptor, n1), Code.UNSCHEDULABLE, ANTI_AFFINITY);

    assertPasses(
        extensions().get(ExtensionPoint.SIMULATE_ADD_TASK).add(copy, preemptor, noisy, n1));
    assertFails(simulate(copy, preemptor, n1), Code.UNSCHEDULABLE, ANTI_AFFINITY);
  }

  @Test
  void simulation_removingAPodWhoseAntiAffinityRefusesThePod() {
    FakeNode n1 = node("n1");
    FakeTask loner = running("loner", n1).requiredPodAntiAffinity(HOSTNAME, "app", "web");
    FakeTask web = pod("web").label("app", "web");
    assertFails(check(web, n1), Code.UNSCHEDULABLE, EXISTING);
    CycleState copy = session.cycleState(web).copy();

    extensions().get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(copy, web, loner, n1);

    assertPasses(simulate(copy, web, n1));
  }

  @Test
  void simulation_affinityGainedByAddingAPod() {
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    running("db", n2).label("app", "db");
    FakeTask p = pod("p").requiredPodAffinity(HOSTNAME, "app", "db");
    assertFails(check(p, n1), Code.UNSCHEDULABLE_AND_UNRESOLVABLE, AFFINITY);
    CycleState copy = session.cycleState(p).copy();

    extensions()
        .get(ExtensionPoint.SIMULATE_ADD_TASK)
        .add(copy, p, pod("db-2").label("app", "db"), n1);

    assertPasses(simulate(copy, p, n1));
  }

  @Test
  void simulation_passesWhenTheFilterIsSkipped() {
    FakeNode n1 = node("n1");
    FakeTask noisy = running("noisy", n1).label("test", "test");
    FakeTask plain = pod("plain");
    assertPasses(check(plain, n1));
    CycleState copy = session.cycleState(plain).copy();

    assertPasses(extensions().get(ExtensionPoint.SIMULATE_ADD_TASK).add(copy, plain, noisy, n1));
    assertPasses(simulate(copy, plain, n1));
  }

  // ------------------------------------------------------------ bad input

  @Test
  void anInvalidSelector_isOneWarningPerPodAndSession_andTheTermSelectsNothing() {
    FakeNode n1 = node("n1");
    running("db", n1).label("app", "db");
    FakeTask bad =
        pod("bad")
            .podAntiAffinity(
                new PodAffinity(
                    List.of(
                        new PodAffinityTerm(
                            new LabelSelector(
                                null,
                                List.of(
                                    new LabelSelectorRequirement("app", "Like", List.of("db")))),
                            null,
                            HOSTNAME,
                            null,
                            null,
                            null)),
                    null));

    assertPasses(check(bad, n1));
    assertPasses(check(bad, n1));

    assertThat(session.events())
        .containsExactly(
            new RecordedEvent(
                "Pod",
                "ns/bad",
                "Warning",
                "InvalidPlacementTerms",
                "pod ns/bad: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                    + "[0].labelSelector.matchExpressions[0].operator: expected one of In, NotIn,"
                    + " Exists, DoesNotExist, got \"Like\""));
  }

  private dev.caldera.api.extension.Status simulate(
      CycleState state, FakeTask task, FakeNode node) {
    return extensions().get(ExtensionPoint.SIMULATE_PREDICATE).check(state, task, node);
  }

  private static LabelSelector selector(String key, String value) {
    return new LabelSelector(Map.of(key, value), null);
  }

  private static PodAffinity nsSelectorAffinity(LabelSelector namespaceSelector) {
    return new PodAffinity(
        List.of(
            new PodAffinityTerm(
                selector("app", "db"), null, HOSTNAME, namespaceSelector, null, null)),
        null);
  }

  private static Namespace namespace(String name, String key, String value) {
    return new Namespace(
        new ObjectMeta(name, "", null, null, null, Map.of(key, value), null, null));
  }
}
