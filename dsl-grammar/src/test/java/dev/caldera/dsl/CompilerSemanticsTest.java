package dev.caldera.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What compiled policies decide, on a fake session. */
class CompilerSemanticsTest {

  static final String SERVICE_TYPE = "volcano.sh/service.type";

  FakeSession session;
  FakeTask service;
  FakeTask deployment;
  FakeTask annotatedTraining;
  FakeTask jobOwned;
  FakeTask untyped;
  FakeTask lockedTraining;
  FakeTask badAnnotation;

  @BeforeEach
  void cluster() {
    session = new FakeSession().now(Instant.parse("2026-01-01T01:00:00Z"));
    session.addQueue("q-inf").reclaimable(false).capability("cpu", "4").priority(10);
    session.addQueue("q-train").reclaimable(true).priority(1);
    session.addQueue("q-locked").reclaimable(false);
    service =
        session
            .addJob("ns/svc")
            .queue("q-inf")
            .annotation(SERVICE_TYPE, "inference")
            .task("svc-0")
            .requests("cpu", "1");
    deployment =
        session.addJob("ns/deploy").queue("q-inf").task("deploy-0").owner("Deployment", "d");
    annotatedTraining =
        session
            .addJob("ns/train")
            .queue("q-train")
            .annotation(SERVICE_TYPE, "training")
            .created(Instant.parse("2026-01-01T00:00:00Z"))
            .task("train-0")
            .requests("cpu", "2", "memory", "8Gi", "nvidia.com/gpu", "4")
            .label("team", "vision")
            .status(TaskStatus.RUNNING);
    jobOwned =
        session
            .addJob("ns/trainjob")
            .queue("q-train")
            .created(Instant.parse("2026-01-01T00:55:00Z"))
            .task("trainjob-0")
            .owner("Job", "j")
            .requests("cpu", "1")
            .status(TaskStatus.RUNNING);
    untyped =
        session.addJob("ns/other").queue("q-train").task("other-0").status(TaskStatus.RUNNING);
    lockedTraining =
        session
            .addJob("ns/locked")
            .queue("q-locked")
            .annotation(SERVICE_TYPE, "training")
            .task("locked-0")
            .status(TaskStatus.RUNNING);
    badAnnotation =
        session
            .addJob("ns/bogus")
            .queue("q-inf")
            .annotation(SERVICE_TYPE, "batch")
            .task("bogus-0")
            .owner("ReplicaSet", "r");
  }

  static Policy compile(String source) {
    CompileResult r = PolicyCompiler.compile("t.policy", source);
    assertThat(r.render()).isEmpty();
    return r.policy();
  }

  static Policy tidal() throws IOException {
    return compile(CheckerTest.tidal());
  }

  List<TaskInfo> everyone() {
    return List.of(
        annotatedTraining, jobOwned, untyped, deployment, lockedTraining, service, badAnnotation);
  }

  @Test
  void tidal_inferenceReclaimsEveryTrainingTask_theQueueFlagIsTheActionsBusiness()
      throws IOException {
    ReclaimableFn fn = tidal().reclaimable(new SessionPolicyContext(session));

    Victims v = fn.select(service, everyone());

    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    assertThat(v.tasks())
        .containsExactly(annotatedTraining, jobOwned, lockedTraining, badAnnotation);
  }

  @Test
  void tidal_ownerKindDecidesWhenTheAnnotationIsNotAClass() throws IOException {
    ReclaimableFn fn = tidal().reclaimable(new SessionPolicyContext(session));

    // As a reclaimer, a batch ReplicaSet is inference; as a victim, its service type (batch) is
    // neither inference nor training, which any non-training reclaimer may take (issue 37).
    assertThat(fn.select(badAnnotation, everyone()).tasks())
        .containsExactly(annotatedTraining, jobOwned, lockedTraining, badAnnotation);
    assertThat(fn.select(deployment, everyone()).tasks())
        .containsExactly(annotatedTraining, jobOwned, lockedTraining, badAnnotation);
  }

  @Test
  void tidal_trainingReclaimsNothing_anUnknownReclaimerTakesTraining() throws IOException {
    ReclaimableFn fn = tidal().reclaimable(new SessionPolicyContext(session));

    Victims byTraining = fn.select(jobOwned, everyone());
    Victims byUnknown = fn.select(untyped, everyone());

    assertThat(byTraining.tasks()).isEmpty();
    assertThat(byTraining.vote()).isEqualTo(Vote.PERMIT);
    assertThat(byUnknown.tasks())
        .containsExactly(annotatedTraining, jobOwned, lockedTraining, badAnnotation);
  }

  @Test
  void tidal_explainNamesTheDecidingRuleAndTheClasses() throws IOException {
    Policy tidal = tidal();
    SessionPolicyContext ctx = new SessionPolicyContext(session);

    Decision allowed = tidal.explainReclaim(ctx, badAnnotation, annotatedTraining);
    Decision spared = tidal.explainReclaim(ctx, service, untyped);
    Decision byTraining = tidal.explainReclaim(ctx, jobOwned, annotatedTraining);

    assertThat(allowed.describe())
        .isEqualTo(
            "allow by t.policy:18: any may reclaim training\n"
                + "  reclaimer service = inference (from owner.kind, line 11)\n"
                + "  reclaimee service = training (from"
                + " podgroup.annotations[\"volcano.sh/service.type\"], line 10)\n"
                + "  read:\n"
                + "    reclaimer podgroup.annotations[\"volcano.sh/service.type\"] = \"batch\"\n"
                + "    reclaimer owner.kind = \"ReplicaSet\"\n"
                + "    reclaimee podgroup.annotations[\"volcano.sh/service.type\"] = \"training\"\n"
                // the condition of the rule before it (a service type outside the classes)
                + "    reclaimee.podgroup.annotations[\"volcano.sh/service.type\"] = \"training\"");
    assertThat(spared.allowed()).isFalse();
    assertThat(spared.line()).isEqualTo(19);
    assertThat(spared.rule()).isEqualTo("otherwise deny");
    assertThat(spared.classes()).contains("reclaimee service = unknown (otherwise, line 12)");
    assertThat(byTraining.rule()).isEqualTo("training may not reclaim any");
    assertThat(byTraining.line()).isEqualTo(16);
  }

  @Test
  void tidal_preemptiveKeepsAllocatedPlusRequestWithinCapability() throws IOException {
    PreemptiveFn fn = tidal().preemptive(new SessionPolicyContext(session));
    session.job("ns/svc").task("svc-run").requests("cpu", "3").status(TaskStatus.RUNNING);
    FakeTask small = session.job("ns/svc").task("svc-1").requests("cpu", "1");
    FakeTask big = session.job("ns/svc").task("svc-2").requests("cpu", "1500m");

    assertThat(fn.test(session.queue("q-inf"), List.of(small))).isTrue();
    assertThat(fn.test(session.queue("q-inf"), List.of(big))).isFalse();
    assertThat(fn.test(session.queue("q-inf"), List.of(small, big))).isFalse();
    assertThat(fn.test(session.queue("q-train"), List.of(big)))
        .as("no capability: unlimited")
        .isTrue();
    session.queue("q-train").state("Closed");
    assertThat(fn.test(session.queue("q-train"), List.of(small))).isFalse();
  }

  @Test
  void queueAllocated_followsTheSessionsAllocations() throws IOException {
    SessionPolicyContext ctx = new SessionPolicyContext(session);
    PreemptiveFn fn = tidal().preemptive(ctx);
    FakeTask task = session.job("ns/svc").task("svc-1").requests("cpu", "3500m");
    assertThat(fn.test(session.queue("q-inf"), List.of(task))).isTrue();

    FakeTask other = session.job("ns/svc").task("svc-2").requests("cpu", "1").on(null);
    ctx.eventHandler().allocated(other);

    assertThat(fn.test(session.queue("q-inf"), List.of(task))).isFalse();
    ctx.eventHandler().deallocated(other);
    assertThat(fn.test(session.queue("q-inf"), List.of(task))).isTrue();
  }

  @Test
  void conditions_readDurationsQuantitiesLabelsAndClasses() {
    Policy p =
        compile(
            "policy t\n"
                + "classify service as inference | training | unknown {\n"
                + "  from podgroup.annotations[\"volcano.sh/service.type\"]\n"
                + "  from owner.kind { Job: training }\n"
                + "  otherwise unknown\n"
                + "}\n"
                + "reclaim {\n"
                + "  any may reclaim any when reclaimee.podgroup.age > 30m and"
                + " reclaimee.request[\"nvidia.com/gpu\"] >= 4 and reclaimee.request.memory >= 8Gi\n"
                + "  any may reclaim any when reclaimee.job.age < 10m and reclaimee.service =="
                + " training and reclaimee.labels[\"team\"] exists\n"
                + "  any may reclaim any when reclaimee.owner.kind not in [Job, Deployment] and"
                + " not reclaimee.labels[\"team\"] exists and reclaimee.queue.priority < 2\n"
                + "  otherwise deny\n"
                + "}\n");
    ReclaimableFn fn = p.reclaimable(new SessionPolicyContext(session));

    assertThat(fn.select(service, everyone()).tasks())
        .containsExactly(annotatedTraining, untyped, lockedTraining);
  }

  @Test
  void explain_printsEveryAttributeTheConditionsRead_withItsValue() {
    Policy p =
        compile(
            "policy t\n"
                + "reclaim {\n"
                + "  any may reclaim any when reclaimee.request < {cpu: 2, memory: 1Gi} and"
                + " reclaimee.queue.priority > 5\n"
                + "  any may reclaim any when reclaimee.owner.kind == Job and"
                + " reclaimee.labels[\"team\"] exists\n"
                + "  otherwise deny\n"
                + "}\n");
    SessionPolicyContext ctx = new SessionPolicyContext(session);

    Decision d = p.explainReclaim(ctx, service, jobOwned);

    // In the order read: the first rule's two conditions, then the second rule's.
    assertThat(d.reads())
        .as(d.describe())
        .hasSize(4)
        .satisfies(
            reads -> {
              assertThat(reads.get(0)).startsWith("reclaimee.request = cpu 1");
              assertThat(reads.get(1)).isEqualTo("reclaimee.queue.priority = 1");
              assertThat(reads.get(2)).isEqualTo("reclaimee.owner.kind = \"Job\"");
              assertThat(reads.get(3)).startsWith("reclaimee.labels[\"team\"] = ");
            });
    assertThat(d.describe()).contains("\n  read:\n    reclaimee.request = cpu 1");
    // Recording changes no decision: explain and the bound function agree.
    assertThat(p.reclaimable(ctx).select(service, List.of(jobOwned)).tasks().isEmpty())
        .isEqualTo(!d.allowed());
  }

  @Test
  void resourceComparisons_arePerDimensionWithoutPods() {
    Policy p =
        compile(
            "policy t\n"
                + "reclaim {\n"
                + "  any may reclaim any when reclaimee.request < {cpu: 2, memory: 1Gi} and"
                + " reclaimee.request.cpu == 1\n"
                + "  any may reclaim any when reclaimee.request - {cpu: 1} >= {cpu: 1, memory: 8Gi,"
                + " \"nvidia.com/gpu\": 4} and reclaimee.request != {cpu: 2}\n"
                + "  otherwise deny\n"
                + "}\n");
    ReclaimableFn fn = p.reclaimable(new SessionPolicyContext(session));

    assertThat(fn.select(service, everyone()).tasks())
        .containsExactly(annotatedTraining, jobOwned, service);
  }

  @Test
  void missingObjects_readAsNoValue() {
    FakeTask orphan = new FakeTask("ns/orphan");
    Policy p =
        compile(
            "policy t\n"
                + "reclaim {\n"
                + "  any may not reclaim any when reclaimee.queue.priority < 5\n"
                + "  any may not reclaim any when reclaimee.queue.priority >= 5\n"
                + "  any may not reclaim any when reclaimee.podgroup.name exists\n"
                + "  otherwise allow\n"
                + "}\n");
    ReclaimableFn fn = p.reclaimable(new SessionPolicyContext(session));

    assertThat(fn.select(service, List.of(orphan, untyped)).tasks()).containsExactly(orphan);
  }

  @Test
  void preemptiveRules_matchTheTaskClassFirstRuleWins() {
    Policy p =
        compile(
            "policy t\n"
                + "classify service as inference | training {\n"
                + "  from podgroup.annotations[\"volcano.sh/service.type\"]\n"
                + "  otherwise training\n"
                + "}\n"
                + "preemptive {\n"
                + "  deny for training\n"
                + "  allow when queue.name == \"q-inf\" and task.queue.name == queue.name\n"
                + "  otherwise deny\n"
                + "}\n");
    PreemptiveFn fn = p.preemptive(new SessionPolicyContext(session));

    assertThat(fn.test(session.queue("q-inf"), List.of(service))).isTrue();
    assertThat(fn.test(session.queue("q-train"), List.of(service))).isFalse();
    assertThat(fn.test(session.queue("q-train"), List.of(annotatedTraining))).isFalse();
    assertThat(p.hasReclaim()).isFalse();
    assertThat(p.usesQueueAllocation()).isFalse();
  }

  @Test
  void queueShare_isTheLargestAllocatedOverDeserved() {
    session.queue("q-train").deserved("cpu", "2");
    Policy p =
        compile(
            "policy t\n"
                + "preemptive {\n"
                + "  allow when queue.share > 1.49 and queue.share < 1.51\n"
                + "  otherwise deny\n"
                + "}\n");
    PreemptiveFn fn = p.preemptive(new SessionPolicyContext(session));

    assertThat(fn.test(session.queue("q-train"), List.of())).as("(2 + 1) cpu / 2").isTrue();
    assertThat(fn.test(session.queue("q-locked"), List.of())).as("no deserved: 1").isFalse();
  }
}
