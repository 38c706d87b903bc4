package dev.caldera.sim;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpectationCheckerTest {

  private static final List<Pod> PODS =
      List.of(
          pod("ns1/p3").annotation("scheduling.k8s.io/group-name", "pg2").build(),
          pod("ns1/p4").annotation("scheduling.k8s.io/group-name", "pg2").build(),
          pod("ns1/p5").annotation("scheduling.k8s.io/group-name", "pg3").build());

  /** Two sessions: p2 bound to n2 then p6 to n1; p1 evicted; p3 pipelined onto n1 at the end. */
  private static ScenarioReport report() {
    SessionReport s1 =
        session(
            1,
            List.of(new SessionResult.Bind("ns1/p2", "n2")),
            List.of(new SessionResult.Eviction("ns1/p1", "reclaim", "ns1/p2")),
            List.of(new SessionResult.Pipelined("ns1/p5", "n3")),
            List.of(
                new SessionResult.Event(
                    "PodGroup", "ns1/pg2", "Warning", "Unschedulable", "insufficient cpu quota")));
    SessionReport s2 =
        session(
            2,
            List.of(new SessionResult.Bind("ns1/p6", "n1")),
            List.of(),
            List.of(new SessionResult.Pipelined("ns1/p3", "n1")),
            List.of());
    return new ScenarioReport(
        "s",
        Path.of("s.yaml"),
        List.of(s1, s2),
        Map.of("ns1/pg1", "Running", "ns1/pg2", "Inqueue"),
        Map.of("q1", Map.of("cpu", Quantity.parse("3000m"), "memory", Quantity.parse("1Gi"))),
        List.of());
  }

  @Test
  void check_allExpectationsHold_noMismatch() {
    Expectations e =
        new Expectations(
            Map.of("ns1/p2", "n2", "ns1/p6", "n1"),
            2,
            List.of("ns1/p1"),
            1,
            Map.of("ns1/pg2", List.of("n1")),
            Map.of("ns1/pg1", "Running"),
            Map.of("q1", Map.of("cpu", Quantity.parse("3"), "nvidia.com/gpu", Quantity.parse("0"))),
            List.of(
                new Expectations.EventExpectation("ns1/pg2", "Unschedulable", "cpu quota"),
                new Expectations.EventExpectation(null, null, "insufficient")));

    assertThat(ExpectationChecker.check(scenario(e), report())).isEmpty();
  }

  @Test
  void check_noExpect_noMismatch() {
    assertThat(ExpectationChecker.check(scenario(null), report())).isEmpty();
  }

  @Test
  void check_bind_reportsMissingAndWrongNode() {
    Expectations e = only(Map.of("ns1/p9", "n1"), null, null, null);
    Expectations wrong = only(Map.of("ns1/p2", "n1"), null, null, null);

    assertThat(ExpectationChecker.check(scenario(e), report()))
        .containsExactly("bind ns1/p9: expected n1, got nothing");
    assertThat(ExpectationChecker.check(scenario(wrong), report()))
        .containsExactly("bind ns1/p2: expected n1, got n2");
  }

  @Test
  void check_counts_reportExpectedAndActual() {
    Expectations e = only(null, 3, null, 0);

    assertThat(ExpectationChecker.check(scenario(e), report()))
        .containsExactly("bindCount: expected 3, got 2", "evictCount: expected 0, got 1");
  }

  @Test
  void check_evict_isAnExactMultiset() {
    Expectations twice = only(null, null, List.of("ns1/p1", "ns1/p1"), null);
    Expectations none = only(null, null, List.of(), null);

    assertThat(ExpectationChecker.check(scenario(twice), report()))
        .containsExactly("evict: expected [ns1/p1, ns1/p1], got [ns1/p1]");
    assertThat(ExpectationChecker.check(scenario(none), report()))
        .containsExactly("evict: expected [], got [ns1/p1]");
  }

  @Test
  void check_pipelined_usesLastSessionAndBothContainments() {
    Expectations wrongNode = pipelined(Map.of("ns1/pg2", List.of("n2")));
    Expectations earlierSessionOnly = pipelined(Map.of("ns1/pg3", List.of("n3")));
    Expectations extraNode = pipelined(Map.of("ns1/pg2", List.of("n1", "n4")));

    assertThat(ExpectationChecker.check(scenario(wrongNode), report()))
        .containsExactly("pipelined ns1/pg2: expected [n2], got [n1]");
    assertThat(ExpectationChecker.check(scenario(earlierSessionOnly), report()))
        .containsExactly("pipelined ns1/pg3: expected [n3], got nothing");
    assertThat(ExpectationChecker.check(scenario(extraNode), report()))
        .containsExactly("pipelined ns1/pg2: expected [n1, n4], got [n1]");
  }

  @Test
  void check_podGroupPhase_reportsWrongAndMissing() {
    Expectations e =
        new Expectations(
            null,
            null,
            null,
            null,
            null,
            new java.util.LinkedHashMap<>(Map.of("ns1/pg2", "Running")),
            null,
            null);
    Expectations missing =
        new Expectations(null, null, null, null, null, Map.of("ns1/zz", "Pending"), null, null);

    assertThat(ExpectationChecker.check(scenario(e), report()))
        .containsExactly("podGroupPhase ns1/pg2: expected Running, got Inqueue");
    assertThat(ExpectationChecker.check(scenario(missing), report()))
        .containsExactly("podGroupPhase ns1/zz: expected Pending, got nothing");
  }

  @Test
  void check_queueAllocated_comparesListedResourcesNumerically() {
    Expectations e =
        new Expectations(
            null,
            null,
            null,
            null,
            null,
            null,
            Map.of("q1", Map.of("memory", Quantity.parse("2Gi"))),
            null);
    Expectations gpu =
        new Expectations(
            null,
            null,
            null,
            null,
            null,
            null,
            Map.of("q1", Map.of("nvidia.com/gpu", q("1"))),
            null);
    Expectations noQueue =
        new Expectations(
            null, null, null, null, null, null, Map.of("q9", Map.of("cpu", q("1"))), null);

    assertThat(ExpectationChecker.check(scenario(e), report()))
        .containsExactly("queueAllocated q1 memory: expected 2Gi, got 1Gi");
    assertThat(ExpectationChecker.check(scenario(gpu), report()))
        .containsExactly("queueAllocated q1 nvidia.com/gpu: expected 1, got nothing");
    assertThat(ExpectationChecker.check(scenario(noQueue), report()))
        .containsExactly("queueAllocated q9: expected {cpu: 1}, got nothing (no such queue)");
  }

  @Test
  void check_events_objectAndReasonExact_messageContained() {
    Expectations wrongObject =
        events(new Expectations.EventExpectation("ns1/pg1", null, "insufficient"));
    Expectations wrongReason =
        events(new Expectations.EventExpectation(null, "Evict", "insufficient"));
    Expectations wrongText = events(new Expectations.EventExpectation(null, null, "gpu"));

    assertThat(ExpectationChecker.check(scenario(wrongObject), report()))
        .containsExactly(
            "events: no event {object: ns1/pg1, message containing \"insufficient\"} among 1"
                + " recorded");
    assertThat(ExpectationChecker.check(scenario(wrongReason), report())).hasSize(1);
    assertThat(ExpectationChecker.check(scenario(wrongText), report())).hasSize(1);
  }

  @Test
  void check_noEvents_aMatchingEventIsAMismatch_othersAreNot() {
    Expectations present =
        new Expectations(
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            List.of(new Expectations.EventExpectation(null, null, "insufficient")));
    Expectations absent =
        new Expectations(
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            List.of(new Expectations.EventExpectation("ns1/pg1", null, "insufficient")));

    assertThat(ExpectationChecker.check(scenario(present), report()))
        .singleElement()
        .asString()
        .startsWith("noEvents: an event {message containing \"insufficient\"} was recorded: ");
    assertThat(ExpectationChecker.check(scenario(absent), report())).isEmpty();
  }

  private static Quantity q(String s) {
    return Quantity.parse(s);
  }

  private static Expectations only(
      Map<String, String> bind, Integer bindCount, List<String> evict, Integer evictCount) {
    return new Expectations(bind, bindCount, evict, evictCount, null, null, null, null);
  }

  private static Expectations pipelined(Map<String, List<String>> p) {
    return new Expectations(null, null, null, null, p, null, null, null);
  }

  private static Expectations events(Expectations.EventExpectation... e) {
    return new Expectations(null, null, null, null, null, null, null, List.of(e));
  }

  static Scenario scenario(Expectations e) {
    return new Scenario(
        Path.of("s.yaml"),
        "s",
        "",
        Instant.EPOCH,
        new SchedulerConf(List.of(), List.of(), null),
        Map.of(),
        Map.of(),
        new ClusterState(null, PODS, null, null, null, null, null, null),
        2,
        e);
  }

  static SessionReport session(
      int index,
      List<SessionResult.Bind> binds,
      List<SessionResult.Eviction> evictions,
      List<SessionResult.Pipelined> pipelined,
      List<SessionResult.Event> events) {
    return new SessionReport(
        index,
        1.5,
        binds,
        evictions,
        pipelined,
        Map.of(),
        events,
        new SessionResult.SessionStats(0, 0, 0, 1.5));
  }
}
