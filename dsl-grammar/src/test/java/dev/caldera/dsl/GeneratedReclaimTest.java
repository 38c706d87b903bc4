package dev.caldera.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeSession;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated reclaim decision ({@code reclaimable(...).select}) against the tree evaluator
 * ({@code explainReclaim}, which never uses it): the same verdict for every reclaimer and
 * reclaimee, over expressions it generates and those it leaves to their evaluator nodes.
 */
class GeneratedReclaimTest {

  static final String SERVICE_TYPE = CompilerSemanticsTest.SERVICE_TYPE;

  FakeSession session;
  List<TaskInfo> tasks;

  @BeforeEach
  void cluster() {
    session = new FakeSession().now(Instant.parse("2026-01-01T01:00:00Z"));
    session.addQueue("q-inf").reclaimable(false).priority(10);
    session.addQueue("q-train").reclaimable(true).priority(1);
    session.addQueue("q-locked").reclaimable(false).priority(5);
    tasks = new ArrayList<>();
    tasks.add(
        session
            .addJob("ns/svc")
            .queue("q-inf")
            .annotation(SERVICE_TYPE, "inference")
            .task("svc-0")
            .label("team", "search")
            .requests("cpu", "1"));
    tasks.add(session.addJob("ns/deploy").queue("q-inf").task("deploy-0").owner("Deployment", "d"));
    tasks.add(
        session
            .addJob("ns/train")
            .queue("q-train")
            .annotation(SERVICE_TYPE, "training")
            .task("train-0")
            .label("team", "vision")
            .requests("cpu", "2", "nvidia.com/gpu", "4")
            .status(TaskStatus.RUNNING));
    tasks.add(
        session
            .addJob("ns/trainjob")
            .queue("q-train")
            .task("trainjob-0")
            .owner("Job", "j")
            .status(TaskStatus.RUNNING));
    tasks.add(session.addJob("ns/other").queue("q-train").task("other-0"));
    tasks.add(
        session
            .addJob("ns/locked")
            .queue("q-locked")
            .annotation(SERVICE_TYPE, "training")
            .task("locked-0")
            .label("team", "vision"));
    tasks.add(
        session
            .addJob("ns/bogus")
            .queue("q-inf")
            .annotation(SERVICE_TYPE, "batch")
            .task("bogus-0")
            .owner("ReplicaSet", "r"));
    tasks.add(session.addJob("ns/orphan").queue("q-missing").task("orphan-0").owner("Job", "o"));
  }

  static Stream<String> policies() {
    String service =
        "classify service as inference | training | unknown {\n"
            + "  from podgroup.annotations[\"volcano.sh/service.type\"]\n"
            + "  from owner.kind { ReplicaSet: inference, Deployment: inference, Job: training }\n"
            + "  otherwise unknown\n"
            + "}\n";
    return Stream.of(
        // conditions on the reclaimee's queue, labels, owner and class; and, or, not, ==, !=
        "policy a\n"
            + service
            + "reclaim {\n"
            + "  training may not reclaim any\n"
            + "  inference may reclaim training when reclaimee.queue.reclaimable and"
            + " (reclaimee.labels[\"team\"] == \"vision\" or not reclaimee.labels[\"team\"]"
            + " exists)\n"
            + "  inference may reclaim unknown when reclaimee.owner.kind != \"Job\"\n"
            + "  any may reclaim inference when reclaimer.queue.name != reclaimee.queue.name\n"
            + "  otherwise deny\n"
            + "}\n",
        // expressions left to their nodes: in, numbers, the reclaimee's class; otherwise allow
        "policy b\n"
            + service
            + "reclaim {\n"
            + "  any may not reclaim any when reclaimee.owner.kind in [Job, Deployment] and"
            + " reclaimee.queue.priority < 2\n"
            + "  unknown may reclaim any when reclaimee.service == training\n"
            + "  any may not reclaim training when reclaimee.request[\"nvidia.com/gpu\"] >= 4\n"
            + "  otherwise allow\n"
            + "}\n",
        // no class patterns: every pair through the same rules
        "policy c\n"
            + "reclaim {\n"
            + "  any may reclaim any when reclaimee.queue.reclaimable and not"
            + " reclaimee.podgroup.annotations[\"volcano.sh/service.type\"] exists\n"
            + "  any may reclaim any when reclaimee.podgroup.name == \"locked\"\n"
            + "  otherwise deny\n"
            + "}\n");
  }

  @ParameterizedTest
  @MethodSource("policies")
  void select_agreesWithTheTreeEvaluatorForEveryPair(String source) {
    Policy policy = CompilerSemanticsTest.compile(source);
    SessionPolicyContext context = new SessionPolicyContext(session);

    for (TaskInfo reclaimer : tasks) {
      List<TaskInfo> expected = new ArrayList<>();
      for (TaskInfo candidate : tasks) {
        if (policy.explainReclaim(context, reclaimer, candidate).allowed()) {
          expected.add(candidate);
        }
      }
      assertThat(policy.reclaimable(context).select(reclaimer, tasks).tasks())
          .as("%s reclaiming in %s", reclaimer.name(), policy.name())
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void tidal_selectsAsTheTreeEvaluator() throws IOException {
    select_agreesWithTheTreeEvaluatorForEveryPair(CheckerTest.tidal());
  }
}
