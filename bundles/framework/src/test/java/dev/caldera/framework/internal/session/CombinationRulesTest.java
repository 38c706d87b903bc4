package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CombinationRulesTest {

  private static final String TWO_TIERS =
      """
      actions: probe
      tiers:
      - plugins: [{name: a}, {name: b}]
      - plugins: [{name: c}]
      """;

  private static List<String> names(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::name).toList();
  }

  private SessionProbe threeRunningTasks() {
    return new SessionProbe()
        .node("n1", "8")
        .job("victims", 1, "t-1@n1", "t-2@n1", "t-3@n1")
        .job("p", 1, "p-1");
  }

  private static List<TaskInfo> pick(List<TaskInfo> candidates, String... names) {
    List<String> wanted = List.of(names);
    return candidates.stream().filter(t -> wanted.contains(t.name())).toList();
  }

  @Test
  void preemptable_intersectsVictimsWithinATier() throws Exception {
    AtomicReference<List<String>> result = new AtomicReference<>();
    threeRunningTasks()
        .plugin(
            "a",
            (s, x) ->
                x.add(ExtensionPoint.PREEMPTABLE, (p, c) -> Victims.permit(pick(c, "t-1", "t-2"))))
        .plugin(
            "b",
            (s, x) ->
                x.add(ExtensionPoint.PREEMPTABLE, (p, c) -> Victims.permit(pick(c, "t-2", "t-3"))))
        .plugin("c", (s, x) -> x.add(ExtensionPoint.PREEMPTABLE, (p, c) -> Victims.permit(c)))
        .run(TWO_TIERS, ssn -> result.set(names(ssn.preemptable(preemptor(ssn), candidates(ssn)))));
    assertThat(result.get()).containsExactly("t-2");
  }

  @Test
  void preemptable_emptyAnswerEndsTierAndNextTierDecides() throws Exception {
    AtomicReference<List<String>> result = new AtomicReference<>();
    threeRunningTasks()
        .plugin(
            "a", (s, x) -> x.add(ExtensionPoint.PREEMPTABLE, (p, c) -> Victims.permit(List.of())))
        .plugin(
            "b",
            (s, x) -> x.add(ExtensionPoint.PREEMPTABLE, (p, c) -> Victims.permit(pick(c, "t-2"))))
        .plugin(
            "c",
            (s, x) -> x.add(ExtensionPoint.PREEMPTABLE, (p, c) -> Victims.permit(pick(c, "t-3"))))
        .run(TWO_TIERS, ssn -> result.set(names(ssn.preemptable(preemptor(ssn), candidates(ssn)))));
    assertThat(result.get()).containsExactly("t-3");
  }

  @Test
  void reclaimable_abstainingPluginIsSkippedAndFlagOffIgnoresPlugin() throws Exception {
    AtomicReference<List<String>> result = new AtomicReference<>();
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.RECLAIMABLE, (p, c) -> Victims.abstain()))
        .plugin(
            "b",
            (s, x) -> x.add(ExtensionPoint.RECLAIMABLE, (p, c) -> Victims.permit(pick(c, "t-1"))))
        .plugin(
            "c", (s, x) -> x.add(ExtensionPoint.RECLAIMABLE, (p, c) -> Victims.permit(List.of())))
        .run(
            """
            actions: probe
            tiers:
            - plugins: [{name: a}, {name: b}, {name: c, enableReclaimable: false}]
            """,
            ssn -> result.set(names(ssn.reclaimable(preemptor(ssn), candidates(ssn)))));
    assertThat(result.get()).containsExactly("t-1");
  }

  @Test
  void reclaimable_noTierWithVictimsGivesNone() throws Exception {
    AtomicReference<List<String>> result = new AtomicReference<>();
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.RECLAIMABLE, (p, c) -> Victims.reject()))
        .plugin("b", (s, x) -> x.add(ExtensionPoint.RECLAIMABLE, (p, c) -> Victims.permit(c)))
        .plugin("c", (s, x) -> {})
        .run(TWO_TIERS, ssn -> result.set(names(ssn.reclaimable(preemptor(ssn), candidates(ssn)))));
    assertThat(result.get()).isEmpty();
  }

  @Test
  void jobEnqueueable_rejectAnywhereRejectsAndPermitEndsWalkAtTierEnd() throws Exception {
    List<Boolean> results = new ArrayList<>();
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_ENQUEUEABLE, j -> Vote.PERMIT))
        .plugin("b", (s, x) -> x.add(ExtensionPoint.JOB_ENQUEUEABLE, j -> Vote.ABSTAIN))
        .plugin("c", (s, x) -> x.add(ExtensionPoint.JOB_ENQUEUEABLE, j -> Vote.REJECT))
        .run(TWO_TIERS, ssn -> results.add(ssn.jobEnqueueable(ssn.job("ns/p"))));
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_PIPELINED, j -> Vote.PERMIT))
        .plugin("b", (s, x) -> x.add(ExtensionPoint.JOB_PIPELINED, j -> Vote.REJECT))
        .plugin("c", (s, x) -> {})
        .run(TWO_TIERS, ssn -> results.add(ssn.jobPipelined(ssn.job("ns/p"))));
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_PIPELINED, j -> Vote.ABSTAIN))
        .plugin("b", (s, x) -> {})
        .plugin("c", (s, x) -> x.add(ExtensionPoint.JOB_PIPELINED, j -> Vote.ABSTAIN))
        .run(TWO_TIERS, ssn -> results.add(ssn.jobPipelined(ssn.job("ns/p"))));
    assertThat(results).containsExactly(true, false, true);
  }

  @Test
  void jobOrder_firstNonZeroWinsThenCreationAndUid() throws Exception {
    List<Integer> results = new ArrayList<>();
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_ORDER, (l, r) -> 0))
        .plugin(
            "b", (s, x) -> x.add(ExtensionPoint.JOB_ORDER, (l, r) -> l.name().equals("p") ? -1 : 1))
        .plugin(
            "c", (s, x) -> x.add(ExtensionPoint.JOB_ORDER, (l, r) -> l.name().equals("p") ? 1 : -1))
        .run(
            TWO_TIERS, ssn -> results.add(ssn.compareJobs(ssn.job("ns/p"), ssn.job("ns/victims"))));
    threeRunningTasks()
        .plugin("a", (s, x) -> {})
        .plugin("b", (s, x) -> x.add(ExtensionPoint.JOB_ORDER, (l, r) -> -1))
        .plugin("c", (s, x) -> {})
        .run(
            """
            actions: probe
            tiers:
            - plugins: [{name: a}, {name: b, enableJobOrder: false}]
            - plugins: [{name: c}]
            """,
            ssn -> results.add(ssn.compareJobs(ssn.job("ns/victims"), ssn.job("ns/p"))));
    assertThat(results.get(0)).isNegative();
    assertThat(results.get(1))
        .as("fallback: equal creation time, uid ns/p < ns/victims")
        .isPositive();
  }

  @Test
  void overusedIsOr_allocatableIsAnd_starvingUsesFirstTierWithFunctions() throws Exception {
    List<Boolean> results = new ArrayList<>();
    threeRunningTasks()
        .plugin(
            "a",
            (s, x) -> {
              x.add(ExtensionPoint.OVERUSED, q -> false);
              x.add(ExtensionPoint.ALLOCATABLE, (q, t) -> true);
            })
        .plugin(
            "b",
            (s, x) -> {
              x.add(ExtensionPoint.OVERUSED, q -> true);
              x.add(ExtensionPoint.ALLOCATABLE, (q, t) -> false);
            })
        .plugin("c", (s, x) -> x.add(ExtensionPoint.JOB_STARVING, j -> true))
        .run(
            TWO_TIERS,
            ssn -> {
              results.add(ssn.overused(ssn.queue("default")));
              results.add(ssn.allocatable(ssn.queue("default"), preemptor(ssn)));
              results.add(ssn.jobStarving(ssn.job("ns/p")));
            });
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_STARVING, j -> false))
        .plugin("b", (s, x) -> {})
        .plugin("c", (s, x) -> x.add(ExtensionPoint.JOB_STARVING, j -> true))
        .run(TWO_TIERS, ssn -> results.add(ssn.jobStarving(ssn.job("ns/p"))));
    threeRunningTasks()
        .plugin("a", (s, x) -> {})
        .plugin("b", (s, x) -> {})
        .plugin("c", (s, x) -> {})
        .run(TWO_TIERS, ssn -> results.add(ssn.jobStarving(ssn.job("ns/p"))));
    assertThat(results).containsExactly(true, false, true, false, false);
  }

  @Test
  void jobValid_returnsFirstFailure_andPredicateStopsAtFirstFailure() throws Exception {
    List<Object> results = new ArrayList<>();
    List<String> called = new ArrayList<>();
    threeRunningTasks()
        .plugin(
            "a",
            (s, x) -> {
              x.add(ExtensionPoint.JOB_VALID, j -> new ValidationResult(true, "", ""));
              x.add(
                  ExtensionPoint.PREDICATE,
                  (t, n) -> {
                    called.add("a");
                    return Status.unschedulable("no");
                  });
            })
        .plugin(
            "b",
            (s, x) -> {
              x.add(
                  ExtensionPoint.JOB_VALID,
                  j -> new ValidationResult(false, "NotEnoughTasks", "m"));
              x.add(
                  ExtensionPoint.PREDICATE,
                  (t, n) -> {
                    called.add("b");
                    return Status.OK;
                  });
            })
        .plugin("c", (s, x) -> {})
        .run(
            TWO_TIERS,
            ssn -> {
              results.add(ssn.jobValid(ssn.job("ns/p")).reason());
              results.add(ssn.predicate(preemptor(ssn), ssn.node("n1")).reasons());
            });
    assertThat(results).containsExactly("NotEnoughTasks", List.of("no"));
    assertThat(called).containsExactly("a");
  }

  @Test
  void aFailingPredicateOrPrePredicate_namesItsPlugin_unlessItNamedOne() throws Exception {
    List<Status> results = new ArrayList<>();
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.PREDICATE, (t, n) -> Status.OK))
        .plugin(
            "b",
            (s, x) -> {
              x.add(ExtensionPoint.PREDICATE, (t, n) -> Status.unschedulable("no"));
              x.add(
                  ExtensionPoint.PRE_PREDICATE,
                  t -> new Status(Status.Code.ERROR, List.of("down"), "b-extender"));
            })
        .plugin("c", (s, x) -> {})
        .run(
            TWO_TIERS,
            ssn -> {
              results.add(ssn.predicate(preemptor(ssn), ssn.node("n1")));
              results.add(ssn.prePredicate(preemptor(ssn)));
            });
    assertThat(results)
        .extracting(Status::plugin, Status::reasons)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("b", List.of("no")),
            org.assertj.core.groups.Tuple.tuple("b-extender", List.of("down")));
  }

  @Test
  void nodeScores_addUpAcrossPluginsAndBatchScorers() throws Exception {
    AtomicReference<double[]> result = new AtomicReference<>();
    new SessionProbe()
        .node("n1", "4")
        .node("n2", "4")
        .job("p", 1, "p-1")
        .plugin(
            "a",
            (s, x) -> x.add(ExtensionPoint.NODE_ORDER, (t, n) -> n.name().equals("n1") ? 10 : 1))
        .plugin(
            "b",
            (s, x) ->
                x.add(
                    ExtensionPoint.BATCH_NODE_ORDER,
                    (t, nodes, scores) -> {
                      scores[1] += 100;
                      return Status.OK;
                    }))
        .plugin("c", (s, x) -> x.add(ExtensionPoint.NODE_ORDER, (t, n) -> 5))
        .run(TWO_TIERS, ssn -> result.set(ssn.scoreNodes(preemptor(ssn), ssn.nodes())));
    assertThat(result.get()).containsExactly(15.0, 106.0);
  }

  @Test
  void statement_discardUndoesInReverseAndCallsHandlers() throws Exception {
    List<String> events = new ArrayList<>();
    AtomicReference<String> after = new AtomicReference<>();
    EventHandler recorder =
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            events.add("+" + task.name());
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            events.add("-" + task.name());
          }
        };
    threeRunningTasks()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.EVENT_HANDLER, recorder))
        .plugin("b", (s, x) -> {})
        .plugin("c", (s, x) -> {})
        .run(
            TWO_TIERS,
            ssn -> {
              TaskInfo victim = candidates(ssn).get(0);
              TaskInfo p = preemptor(ssn);
              Statement stmt = ssn.newStatement();
              stmt.evict(victim, "preempt");
              stmt.pipeline(p, ssn.node("n1"), true);
              JobInfo job = ssn.job("ns/p");
              after.set(victim.status() + " " + p.status() + " " + job.waitingTaskNum());
              stmt.discard();
              after.set(
                  after.get()
                      + " | "
                      + victim.status()
                      + " "
                      + p.status()
                      + " "
                      + job.waitingTaskNum());
            });
    assertThat(events).containsExactly("-t-1", "+p-1", "-p-1", "+t-1");
    assertThat(after.get()).isEqualTo("RELEASING PIPELINED 1 | RUNNING PENDING 0");
  }

  @Test
  void statement_commitBindsAllocatedTasksAndSendsEvictions() throws Exception {
    var result =
        threeRunningTasks()
            .plugin("a", (s, x) -> {})
            .plugin("b", (s, x) -> {})
            .plugin("c", (s, x) -> {})
            .run(
                TWO_TIERS,
                ssn -> {
                  TaskInfo victim = candidates(ssn).get(1);
                  Statement stmt = ssn.newStatement();
                  ssn.recordEvictionFor(victim, preemptor(ssn));
                  stmt.evict(victim, "reclaim");
                  stmt.allocate(preemptor(ssn), ssn.node("n1"));
                  stmt.commit();
                  assertThat(preemptor(ssn).status()).isEqualTo(TaskStatus.BINDING);
                });
    assertThat(result.binds())
        .extracting(b -> b.pod() + "->" + b.node())
        .containsExactly("ns/p-1->n1");
    assertThat(result.evictions())
        .extracting(e -> e.pod() + " " + e.action() + " " + e.forPod())
        .containsExactly("ns/t-2 reclaim ns/p-1");
  }

  private static TaskInfo preemptor(dev.caldera.api.action.ActionSession ssn) {
    return ssn.job("ns/p").tasks().get(0);
  }

  private static List<TaskInfo> candidates(dev.caldera.api.action.ActionSession ssn) {
    return ssn.job("ns/victims").tasks();
  }
}
