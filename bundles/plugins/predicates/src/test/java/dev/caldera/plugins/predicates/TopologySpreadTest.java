package dev.caldera.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologySpreadTest extends PredicatesFixture {

  private static final String SKEW = "node(s) didn't match pod topology spread constraints";
  private static final String MISSING =
      "node(s) didn't match pod topology spread constraints (missing required label)";

  private FakeNode zoneA;
  private FakeNode zoneB;

  /** Zone a holds two web pods, zone b none. */
  private void twoZones() {
    zoneA = node("a1").label(ZONE, "a");
    zoneB = node("b1").label(ZONE, "b");
    running("web-0", zoneA).label("app", "web");
    running("web-1", zoneA).label("app", "web");
  }

  private static FakeTask web(String name) {
    return pod(name).label("app", "web");
  }

  @Test
  void skew_rejectsTheCrowdedDomain() {
    twoZones();
    FakeTask p = web("p").spread(1, ZONE, "DoNotSchedule", "app", "web");

    assertFails(check(p, zoneA), Code.UNSCHEDULABLE, SKEW);
    assertPasses(check(p, zoneB));
  }

  @Test
  void skew_readsTheSharedCounts_anEvictedPodStopsCountingAndCountsAgainWhenUndone() {
    twoZones();
    FakeTask p = web("p").spread(2, ZONE, "DoNotSchedule", "app", "web");
    // Zone a: 2 web pods + the pod itself − 0 in zone b = 3 > 2.
    assertFails(check(p, zoneA), Code.UNSCHEDULABLE, SKEW);
    assertThat(
            session
                .topology()
                .matchingPods(zoneA, p.placement().hardSpread().get(0).selector(), "ns"))
        .isEqualTo(2);

    FakeTask victim = (FakeTask) zoneA.tasks().get(0);
    session.evict(victim);
    events().deallocated(victim);
    // One web pod left in zone a: 1 + 1 − 0 = 2.
    FakeTask q = web("q").spread(2, ZONE, "DoNotSchedule", "app", "web");
    assertPasses(check(q, zoneA));

    session.undoEvict(victim);
    events().allocated(victim);
    FakeTask r = web("r").spread(2, ZONE, "DoNotSchedule", "app", "web");
    assertFails(check(r, zoneA), Code.UNSCHEDULABLE, SKEW);
  }

  @Test
  void skew_allowsUpToMaxSkew() {
    twoZones();

    assertPasses(check(web("p").spread(3, ZONE, "DoNotSchedule", "app", "web"), zoneA));
  }

  @Test
  void skew_aPodOutsideTheSelectorDoesNotCountItself() {
    zoneA = node("a1").label(ZONE, "a");
    node("b1").label(ZONE, "b");
    running("web-0", zoneA).label("app", "web");

    assertPasses(
        check(pod("db").label("app", "db").spread(1, ZONE, "DoNotSchedule", "app", "web"), zoneA));
  }

  @Test
  void missingTopologyLabel_isUnresolvable() {
    twoZones();
    FakeNode bare = node("bare");

    assertFails(
        check(web("p").spread(1, ZONE, "DoNotSchedule", "app", "web"), bare),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        MISSING);
  }

  @Test
  void scheduleAnyway_isNotAFilter() {
    twoZones();

    assertPasses(check(web("p").spread(1, ZONE, "ScheduleAnyway", "app", "web"), zoneA));
  }

  @Test
  void minDomains_treatsTheMinimumAsZeroWhenTooFewDomains() {
    zoneA = node("a1").label(ZONE, "a");
    zoneB = node("b1").label(ZONE, "b");
    running("web-0", zoneA).label("app", "web");
    running("web-1", zoneB).label("app", "web");

    assertPasses(check(web("default").spread(1, ZONE, "DoNotSchedule", "app", "web"), zoneA));
    assertFails(
        check(web("three").spreadConstraint(constraint(3, null, null)), zoneA),
        Code.UNSCHEDULABLE,
        SKEW);
  }

  @Test
  void nodeAffinityPolicy_honourLeavesOutDomainsThePodCannotUse() {
    twoZones();
    zoneA.label("pool", "x");
    FakeTask honour =
        web("honour").nodeSelector("pool", "x").spreadConstraint(constraint(null, null, null));
    FakeTask ignore =
        web("ignore").nodeSelector("pool", "x").spreadConstraint(constraint(null, "Ignore", null));

    assertPasses(check(honour, zoneA));
    assertFails(check(ignore, zoneA), Code.UNSCHEDULABLE, SKEW);
  }

  @Test
  void nodeTaintsPolicy_honourLeavesOutDomainsWithUntoleratedTaints() {
    twoZones();
    zoneB.taint("dedicated", "gpu", "NoSchedule");
    FakeTask honour = web("honour").spreadConstraint(constraint(null, null, "Honor"));
    FakeTask ignore = web("ignore").spreadConstraint(constraint(null, null, null));

    assertPasses(check(honour, zoneA));
    assertFails(check(ignore, zoneA), Code.UNSCHEDULABLE, SKEW);
  }

  @Test
  void matchLabelKeys_countOnlyPodsWithThePodsValue() {
    zoneA = node("a1").label(ZONE, "a");
    node("b1").label(ZONE, "b");
    running("v1-0", zoneA).label("app", "web").label("version", "1");
    running("v1-1", zoneA).label("app", "web").label("version", "1");
    TopologySpreadConstraint byVersion =
        new TopologySpreadConstraint(
            1,
            ZONE,
            "DoNotSchedule",
            new LabelSelector(Map.of("app", "web"), null),
            null,
            null,
            null,
            List.of("version"));

    assertPasses(check(web("v2").label("version", "2").spreadConstraint(byVersion), zoneA));
    assertFails(
        check(web("v1").label("version", "1").spreadConstraint(byVersion), zoneA),
        Code.UNSCHEDULABLE,
        SKEW);
  }

  @Test
  void terminatingPodsAndOtherNamespaces_doNotCount() {
    zoneA = node("a1").label(ZONE, "a");
    node("b1").label(ZONE, "b");
    running("web-0", zoneA).label("app", "web").deleted(Instant.EPOCH);
    running("other/web-1", zoneA).label("app", "web");

    assertPasses(check(web("p").spread(1, ZONE, "DoNotSchedule", "app", "web"), zoneA));
  }

  @Test
  void emptySelector_countsNoExistingPodButSelectsThePodItself() {
    twoZones();
    TopologySpreadConstraint everything =
        new TopologySpreadConstraint(
            0, ZONE, "DoNotSchedule", new LabelSelector(null, null), null, null, null, null);

    assertFails(check(web("p").spreadConstraint(everything), zoneA), Code.UNSCHEDULABLE, SKEW);
    assertPasses(
        check(
            web("q")
                .spreadConstraint(
                    new TopologySpreadConstraint(
                        1,
                        ZONE,
                        "DoNotSchedule",
                        new LabelSelector(null, null),
                        null,
                        null,
                        null,
                        null)),
            zoneA));
  }

  @Test
  void disabled_ignoresSpread() {
    arguments =
        PredicatesArguments.from(
            new PluginArguments(
                "predicates", Map.of(PredicatesArguments.POD_TOPOLOGY_SPREAD, false), false));
    twoZones();
    FakeNode bare = node("bare");

    assertPasses(check(web("p").spread(1, ZONE, "DoNotSchedule", "app", "web"), zoneA));
    assertPasses(check(web("q").spread(1, ZONE, "DoNotSchedule", "app", "web"), bare));
  }

  private static TopologySpreadConstraint constraint(
      Integer minDomains, String nodeAffinityPolicy, String nodeTaintsPolicy) {
    return new TopologySpreadConstraint(
        1,
        ZONE,
        "DoNotSchedule",
        new LabelSelector(Map.of("app", "web"), null),
        minDomains,
        nodeAffinityPolicy,
        nodeTaintsPolicy,
        null);
  }
}
