package dev.caldera.plugins.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExtenderPluginTest {

  private final FakeExtender server = new FakeExtender();
  private final FakeSession session = new FakeSession();
  private final FakeJob job = session.addJob("ns/pg");
  private final FakeNode n1 =
      session.addNode("n1").allocatable("cpu", "4", "memory", "8Gi", "pods", "110");
  private final FakeNode n2 =
      session.addNode("n2").allocatable("cpu", "2", "memory", "4Gi", "pods", "110");

  @AfterEach
  void stop() {
    server.close();
  }

  private Map<String, Object> args(boolean ignorable, String... verbKeyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("extender.urlPrefix", server.url() + "/");
    m.put("extender.ignorable", ignorable);
    for (int i = 0; i < verbKeyValues.length; i += 2) {
      m.put(verbKeyValues[i], verbKeyValues[i + 1]);
    }
    return m;
  }

  private RecordingExtensions open(Map<String, Object> args) {
    return RecordingExtensions.open(plugin(args), session);
  }

  private static ExtenderPlugin plugin(Map<String, Object> args) {
    return (ExtenderPlugin)
        new ExtenderPluginFactory().create(new PluginArguments("extender", args, false));
  }

  private RecordingExtensions open(boolean ignorable, Verb verb) {
    return open(args(ignorable, verb.key(), "v"));
  }

  private FakeTask pending(String name) {
    return job.task(name).requests("cpu", "1", "memory", "1Gi");
  }

  // ------------------------------------------------------------ registration and session

  @Test
  void open_registersOnlyTheConfiguredVerbs() {
    RecordingExtensions ext =
        open(args(false, "extender.predicateVerb", "filter", "extender.jobReadyVerb", "ready"));
    assertThat(ext.points())
        .containsExactlyInAnyOrder(ExtensionPoint.PREDICATE, ExtensionPoint.JOB_READY);
  }

  @Test
  void open_everyVerb_registersEveryFunction() {
    Map<String, Object> args = args(false);
    for (Verb v : Verb.values()) {
      args.put(v.key(), v.name());
    }
    assertThat(open(args).points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.PREDICATE,
            ExtensionPoint.BATCH_NODE_ORDER,
            ExtensionPoint.PREEMPTABLE,
            ExtensionPoint.RECLAIMABLE,
            ExtensionPoint.JOB_ENQUEUEABLE,
            ExtensionPoint.JOB_ENQUEUED,
            ExtensionPoint.OVERUSED,
            ExtensionPoint.JOB_READY,
            ExtensionPoint.EVENT_HANDLER);
    assertThat(server.requests("ON_SESSION_OPEN")).hasSize(1);
  }

  @Test
  void sessionOpen_sendsJobsNodesAndQueues() {
    session.addQueue("q1");
    pending("t1");
    open(args(false, "extender.onSessionOpenVerb", "open"));
    JsonNode body = server.only("open");
    assertThat(server.requests("open").get(0).method()).isEqualTo("POST");
    assertThat(server.requests("open").get(0).contentType()).isEqualTo("application/json");
    assertThat(body.path("Jobs").path("ns/pg").path("UID").asText()).isEqualTo("ns/pg");
    assertThat(body.path("Jobs").path("ns/pg").path("Tasks").size()).isEqualTo(1);
    assertThat(body.path("Nodes").path("n2").path("Allocatable").path("MilliCPU").asDouble())
        .isEqualTo(2000);
    assertThat(body.path("Queues").path("q1").path("Name").asText()).isEqualTo("q1");
    assertThat(body.has("NamespaceInfo")).isTrue();
  }

  @Test
  void sessionOpenFailure_notIgnorable_registersNothing() {
    server.answer("open", 500, "boom");
    RecordingExtensions ext =
        open(args(false, "extender.onSessionOpenVerb", "open", "extender.predicateVerb", "p"));
    assertThat(ext.points()).isEmpty();
  }

  @Test
  void sessionOpenFailure_ignorable_stillRegisters() {
    server.answer("open", 500, "boom");
    RecordingExtensions ext =
        open(args(true, "extender.onSessionOpenVerb", "open", "extender.predicateVerb", "p"));
    assertThat(ext.points()).containsExactly(ExtensionPoint.PREDICATE);
  }

  @Test
  void sessionClose_postsAnEmptyObject_andSurvivesFailures() {
    ExtenderPlugin plugin = plugin(args(false, "extender.onSessionCloseVerb", "close"));
    plugin.onSessionClose(session);
    assertThat(server.only("close").isObject()).isTrue();
    assertThat(server.only("close").size()).isZero();
    server.answer("close", 503, "");
    plugin.onSessionClose(session);
    assertThat(server.requests("close")).hasSize(2);
  }

  // ------------------------------------------------------------ predicate

  private Status predicate(boolean ignorable, FakeTask task, NodeInfo node) {
    return open(ignorable, Verb.PREDICATE).get(ExtensionPoint.PREDICATE).check(task, node);
  }

  @Test
  void predicate_emptyMessage_passes_andSendsTaskAndNode() {
    server.answer("v", "{\"status\": \"\", \"code\": 3}");
    FakeTask task = pending("t1");
    job.task("running").requests("cpu", "1").status(TaskStatus.RUNNING).on(n1);
    assertThat(predicate(false, task, n1).isSuccess()).isTrue();
    JsonNode body = server.only("v");
    assertThat(body.path("task").path("UID").asText()).isEqualTo(task.uid());
    assertThat(body.path("task").path("Status").asInt()).isEqualTo(1);
    assertThat(body.path("task").path("Resreq").path("MilliCPU").asDouble()).isEqualTo(1000);
    assertThat(body.path("task").path("Resreq").path("ScalarResources").path("pods").asDouble())
        .isEqualTo(1);
    assertThat(body.path("task").path("Pod").path("metadata").path("name").asText())
        .isEqualTo("t1");
    assertThat(
            body.path("task")
                .path("Pod")
                .path("spec")
                .path("containers")
                .get(0)
                .path("resources")
                .path("requests")
                .path("memory")
                .asText())
        .isEqualTo("1Gi");
    assertThat(body.path("node").path("Name").asText()).isEqualTo("n1");
    assertThat(body.path("node").path("Used").path("MilliCPU").asDouble()).isEqualTo(1000);
    assertThat(body.path("node").path("Tasks").path("ns/running").path("Status").asInt())
        .isEqualTo(32);
    assertThat(
            body.path("node").path("Node").path("status").path("allocatable").path("cpu").asText())
        .isEqualTo("4");
  }

  @Test
  void predicate_messageWithCode_failsWithThatCode() {
    server.answer("v", "{\"status\": \"no gpu\", \"code\": 2}");
    Status s = predicate(true, pending("t1"), n1);
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(s.reasons()).containsExactly("no gpu");
  }

  @Test
  void predicate_messageWithoutCode_isAnError() {
    server.answer("v", "{\"status\": \"no gpu\"}");
    assertThat(predicate(true, pending("t1"), n1).code()).isEqualTo(Status.Code.ERROR);
  }

  @Test
  void predicate_keysMatchCaseInsensitively_asGoDecodes() {
    server.answer("v", "{\"STATUS\": \"no\", \"Code\": 3}");
    assertThat(predicate(false, pending("t1"), n1).code())
        .isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
  }

  @Test
  void predicate_jsonNull_decodesAsAnEmptyAnswer() {
    server.answer("v", "null");
    assertThat(predicate(false, pending("t1"), n1).isSuccess()).isTrue();
  }

  @Test
  void predicate_http500_ignorablePasses_otherwiseError() {
    server.answer("v", 500, "{\"status\": \"\"}");
    assertThat(predicate(true, pending("t1"), n1).isSuccess()).isTrue();
    Status s = predicate(false, pending("t2"), n1);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("code 500").contains("/v");
  }

  @Test
  void predicate_malformedJson_ignorablePasses_otherwiseError() {
    server.answer("v", "{\"status\": ");
    assertThat(predicate(true, pending("t1"), n1).isSuccess()).isTrue();
    Status s = predicate(false, pending("t2"), n1);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("malformed JSON");
  }

  @Test
  void predicate_wrongJsonTypes_areFailures() {
    server.answer("v", "{\"status\": \"x\", \"code\": \"two\"}");
    assertThat(predicate(true, pending("t1"), n1).isSuccess()).isTrue();
    assertThat(predicate(false, pending("t2"), n1).message()).contains("code").contains("integer");
    server.answer("v", "{\"status\": \"x\", \"code\": 2.0}");
    assertThat(predicate(false, pending("t3"), n1).code()).isEqualTo(Status.Code.ERROR);
    server.answer("v", "[]");
    assertThat(predicate(false, pending("t4"), n1).message()).contains("object");
  }

  @Test
  void predicate_emptyBody_isAFailure() {
    server.answer("v", "");
    assertThat(predicate(true, pending("t1"), n1).isSuccess()).isTrue();
    assertThat(predicate(false, pending("t2"), n1).code()).isEqualTo(Status.Code.ERROR);
  }

  @Test
  void predicate_timeout_ignorablePasses_otherwiseError_withinTheTimeout() {
    server.hang("v");
    Map<String, Object> args = args(false, "extender.predicateVerb", "v");
    args.put("extender.httpTimeout", "200ms");
    long start = System.nanoTime();
    Status s = open(args).get(ExtensionPoint.PREDICATE).check(pending("t1"), n1);
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("timed out");
    assertThat(elapsedMillis).isBetween(150L, 5_000L);
    args.put("extender.ignorable", true);
    assertThat(open(args).get(ExtensionPoint.PREDICATE).check(pending("t2"), n1).isSuccess())
        .isTrue();
  }

  @Test
  void predicate_responseOverTenMebibytes_isAFailure() {
    byte[] big = new byte[ExtenderClient.MAX_BODY_BYTES + 16];
    Arrays.fill(big, (byte) ' ');
    byte[] json = "{\"status\": \"\"}".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(json, 0, big, 0, json.length);
    server.answer("v", big);
    Status s = predicate(false, pending("t1"), n1);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).contains("larger than " + ExtenderClient.MAX_BODY_BYTES);
    assertThat(predicate(true, pending("t2"), n1).isSuccess()).isTrue();
  }

  @Test
  void predicate_responseJustUnderTheLimit_isRead() {
    byte[] body = new byte[ExtenderClient.MAX_BODY_BYTES];
    Arrays.fill(body, (byte) ' ');
    byte[] json = "{\"status\": \"full\", \"code\": 2}".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(json, 0, body, 0, json.length);
    server.answer("v", body);
    assertThat(predicate(false, pending("t1"), n1).code()).isEqualTo(Status.Code.UNSCHEDULABLE);
  }

  @Test
  void predicate_unreachableExtender_ignorablePasses_otherwiseError() {
    RecordingExtensions strict = open(false, Verb.PREDICATE);
    RecordingExtensions lenient = open(true, Verb.PREDICATE);
    server.close();
    assertThat(strict.get(ExtensionPoint.PREDICATE).check(pending("t1"), n1).code())
        .isEqualTo(Status.Code.ERROR);
    assertThat(lenient.get(ExtensionPoint.PREDICATE).check(pending("t2"), n1).isSuccess()).isTrue();
  }

  @Test
  void managedResources_uninterestedTasksAreNotSent() {
    Map<String, Object> args =
        args(
            false,
            "extender.predicateVerb",
            "p",
            "extender.prioritizeVerb",
            "s",
            "extender.preemptableVerb",
            "e",
            "extender.allocateFuncVerb",
            "a");
    args.put("extender.managedResources", List.of("nvidia.com/gpu"));
    server.answer("p", "{\"status\": \"refused\", \"code\": 2}");
    RecordingExtensions ext = open(args);
    FakeTask cpuOnly = pending("cpu-only");
    FakeTask gpu = job.task("gpu").requests("cpu", "1", "nvidia.com/gpu", "1");
    assertThat(ext.get(ExtensionPoint.PREDICATE).check(cpuOnly, n1).isSuccess()).isTrue();
    double[] scores = new double[2];
    assertThat(ext.get(ExtensionPoint.BATCH_NODE_ORDER).score(cpuOnly, List.of(n1, n2), scores))
        .isEqualTo(Status.OK);
    assertThat(ext.get(ExtensionPoint.PREEMPTABLE).select(cpuOnly, List.of(gpu)))
        .isEqualTo(Victims.abstain());
    assertThat(ext.get(ExtensionPoint.EVENT_HANDLER).allocated(cpuOnly)).isEqualTo(Status.OK);
    assertThat(server.requests()).isEmpty();
    assertThat(ext.get(ExtensionPoint.PREDICATE).check(gpu, n1).isSuccess()).isFalse();
    assertThat(server.requests("p")).hasSize(1);
  }

  @Test
  void managedResources_initContainerRequestCounts() {
    Map<String, Object> args = args(false, "extender.predicateVerb", "p");
    args.put("extender.managedResources", "nvidia.com/gpu");
    FakeTask task = pending("t").initRequests("nvidia.com/gpu", "1");
    open(args).get(ExtensionPoint.PREDICATE).check(task, n1);
    assertThat(server.requests("p")).hasSize(1);
  }

  // ------------------------------------------------------------ prioritize

  private Status prioritize(boolean ignorable, double[] scores) {
    return open(ignorable, Verb.PRIORITIZE)
        .get(ExtensionPoint.BATCH_NODE_ORDER)
        .score(pending("t" + server.requests().size()), List.of(n1, n2), scores);
  }

  @Test
  void prioritize_addsScoresByNodeName_inOneCallPerTask() {
    server.answer("v", "{\"nodeScore\": {\"n2\": 80.5, \"n1\": 10, \"other\": 99}}");
    double[] scores = {1, 2};
    assertThat(prioritize(false, scores)).isEqualTo(Status.OK);
    assertThat(scores).containsExactly(11, 82.5);
    JsonNode body = server.only("v");
    assertThat(body.path("nodes").size()).isEqualTo(2);
    assertThat(body.path("nodes").get(1).path("Name").asText()).isEqualTo("n2");
  }

  @Test
  void prioritize_errorMessageOrMissingScores_isAnErrorEvenWhenIgnorable() {
    server.answer("v", "{\"nodeScore\": {\"n1\": 5}, \"errorMessage\": \"busy\"}");
    double[] scores = new double[2];
    Status s = prioritize(true, scores);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).isEqualTo("busy");
    server.answer("v", "{}");
    assertThat(prioritize(true, scores).code()).isEqualTo(Status.Code.ERROR);
    assertThat(scores).containsExactly(0, 0);
  }

  @Test
  void prioritize_http500_ignorableAddsNothing_otherwiseError() {
    server.answer("v", 500, "{}");
    double[] scores = new double[2];
    assertThat(prioritize(true, scores)).isEqualTo(Status.OK);
    assertThat(prioritize(false, scores).code()).isEqualTo(Status.Code.ERROR);
    assertThat(scores).containsExactly(0, 0);
  }

  @Test
  void prioritize_nonNumericScore_isAFailure() {
    server.answer("v", "{\"nodeScore\": {\"n1\": \"high\"}}");
    double[] scores = new double[2];
    assertThat(prioritize(true, scores)).isEqualTo(Status.OK);
    assertThat(prioritize(false, scores).message()).contains("nodeScore.n1");
  }

  // ------------------------------------------------------------ preemptable / reclaimable

  private List<FakeTask> runningVictims() {
    return List.of(
        job.task("v1").requests("cpu", "1").status(TaskStatus.RUNNING).on(n1),
        job.task("v2").requests("cpu", "1").status(TaskStatus.RUNNING).on(n1),
        job.task("v3").requests("cpu", "1").status(TaskStatus.RUNNING).on(n2));
  }

  @Test
  void preemptable_mapsVictimsByUid_withTheVote() {
    List<FakeTask> candidates = runningVictims();
    server.answer(
        "v",
        "{\"status\": 1, \"victims\": [{\"UID\": \""
            + candidates.get(2).uid()
            + "\"}, {\"UID\": \"unknown\"}, null, {\"uid\": \""
            + candidates.get(0).uid()
            + "\"}]}");
    FakeTask preemptor = pending("p");
    Victims v =
        open(false, Verb.PREEMPTABLE)
            .get(ExtensionPoint.PREEMPTABLE)
            .select(preemptor, List.copyOf(candidates));
    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    assertThat(v.tasks()).containsExactly(candidates.get(2), candidates.get(0));
    JsonNode body = server.only("v");
    assertThat(body.path("evictor").path("Name").asText()).isEqualTo("p");
    assertThat(body.path("evictees").size()).isEqualTo(3);
  }

  @Test
  void preemptable_votes() {
    List<FakeTask> candidates = runningVictims();
    RecordingExtensions ext = open(false, Verb.PREEMPTABLE);
    server.answer("v", "{\"status\": -1}");
    assertThat(ext.get(ExtensionPoint.PREEMPTABLE).select(pending("a"), List.copyOf(candidates)))
        .isEqualTo(Victims.reject());
    server.answer("v", "{\"status\": 0, \"victims\": []}");
    assertThat(
            ext.get(ExtensionPoint.PREEMPTABLE)
                .select(pending("b"), List.copyOf(candidates))
                .vote())
        .isEqualTo(Vote.ABSTAIN);
  }

  @Test
  void preemptable_failure_ignorablePermitsNothing_otherwiseRejects() {
    List<FakeTask> candidates = runningVictims();
    server.answer("v", 500, "");
    assertThat(
            open(true, Verb.PREEMPTABLE)
                .get(ExtensionPoint.PREEMPTABLE)
                .select(pending("a"), List.copyOf(candidates)))
        .isEqualTo(Victims.permit(List.of()));
    assertThat(
            open(false, Verb.PREEMPTABLE)
                .get(ExtensionPoint.PREEMPTABLE)
                .select(pending("b"), List.copyOf(candidates)))
        .isEqualTo(Victims.reject());
  }

  @Test
  void reclaimable_usesItsOwnVerb() {
    List<FakeTask> candidates = runningVictims();
    server.answer(
        "v", "{\"status\": 1, \"victims\": [{\"UID\": \"" + candidates.get(1).uid() + "\"}]}");
    Victims v =
        open(false, Verb.RECLAIMABLE)
            .get(ExtensionPoint.RECLAIMABLE)
            .select(pending("r"), List.copyOf(candidates));
    assertThat(v).isEqualTo(Victims.permit(List.of(candidates.get(1))));
    server.answer("v", "{\"status\": 1, \"victims\": {}}");
    assertThat(
            open(false, Verb.RECLAIMABLE)
                .get(ExtensionPoint.RECLAIMABLE)
                .select(pending("r2"), List.copyOf(candidates)))
        .isEqualTo(Victims.reject());
  }

  // ------------------------------------------------------------ job and queue functions

  @Test
  void jobEnqueueable_votes_andFailures() {
    job.minMember(2);
    server.answer("v", "{\"status\": 1}");
    assertThat(open(false, Verb.JOB_ENQUEUEABLE).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.PERMIT);
    assertThat(server.only("v").path("job").path("MinAvailable").asInt()).isEqualTo(2);
    server.answer("v", "{\"status\": -1}");
    assertThat(open(false, Verb.JOB_ENQUEUEABLE).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.REJECT);
    server.answer("v", "{\"status\": 0}");
    assertThat(open(false, Verb.JOB_ENQUEUEABLE).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.ABSTAIN);
    server.answer("v", 500, "");
    assertThat(open(true, Verb.JOB_ENQUEUEABLE).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.PERMIT);
    assertThat(open(false, Verb.JOB_ENQUEUEABLE).get(ExtensionPoint.JOB_ENQUEUEABLE).vote(job))
        .isEqualTo(Vote.REJECT);
  }

  @Test
  void jobEnqueued_tellsTheExtender_andSurvivesFailures() {
    open(false, Verb.JOB_ENQUEUED).get(ExtensionPoint.JOB_ENQUEUED).enqueued(job);
    assertThat(server.only("v").path("job").path("UID").asText()).isEqualTo("ns/pg");
    server.answer("v", 500, "");
    open(false, Verb.JOB_ENQUEUED).get(ExtensionPoint.JOB_ENQUEUED).enqueued(job);
    assertThat(server.requests("v")).hasSize(2);
  }

  @Test
  void queueOverused_answer_andFailures() {
    session.addQueue("q1").weight(3);
    server.answer("v", "{\"overused\": true}");
    assertThat(
            open(false, Verb.QUEUE_OVERUSED).get(ExtensionPoint.OVERUSED).test(session.queue("q1")))
        .isTrue();
    assertThat(server.only("v").path("queue").path("Weight").asInt()).isEqualTo(3);
    server.answer("v", "{\"overused\": false}");
    assertThat(
            open(false, Verb.QUEUE_OVERUSED).get(ExtensionPoint.OVERUSED).test(session.queue("q1")))
        .isFalse();
    server.answer("v", "{\"overused\": \"yes\"}");
    assertThat(
            open(true, Verb.QUEUE_OVERUSED).get(ExtensionPoint.OVERUSED).test(session.queue("q1")))
        .isFalse();
    assertThat(
            open(false, Verb.QUEUE_OVERUSED).get(ExtensionPoint.OVERUSED).test(session.queue("q1")))
        .isTrue();
  }

  @Test
  void jobReady_answer_andFailures() {
    server.answer("v", "{\"status\": true}");
    assertThat(open(false, Verb.JOB_READY).get(ExtensionPoint.JOB_READY).test(job)).isTrue();
    server.answer("v", "{}");
    assertThat(open(false, Verb.JOB_READY).get(ExtensionPoint.JOB_READY).test(job)).isFalse();
    server.answer("v", 404, "");
    assertThat(open(true, Verb.JOB_READY).get(ExtensionPoint.JOB_READY).test(job)).isFalse();
    assertThat(open(false, Verb.JOB_READY).get(ExtensionPoint.JOB_READY).test(job)).isTrue();
  }

  // ------------------------------------------------------------ event handlers

  @Test
  void allocateFunc_sendsTheTask_andItsErrorFailsTheAllocation() {
    FakeTask task = pending("t1");
    EventHandler handler =
        open(args(
                false, "extender.allocateFuncVerb", "alloc", "extender.deallocateFuncVerb", "free"))
            .get(ExtensionPoint.EVENT_HANDLER);
    assertThat(handler.allocated(task)).isEqualTo(Status.OK);
    assertThat(server.only("alloc").path("task").path("UID").asText()).isEqualTo(task.uid());
    server.answer("alloc", "{\"errorMessage\": \"device busy\"}");
    Status s = handler.allocated(task);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.reasons()).containsExactly("device busy");
    handler.deallocated(task);
    assertThat(server.requests("free")).hasSize(1);
  }

  @Test
  void allocateFunc_failure_ignorableIsOk_otherwiseError() {
    server.answer("v", 500, "");
    FakeTask task = pending("t1");
    assertThat(open(true, Verb.ALLOCATE_FUNC).get(ExtensionPoint.EVENT_HANDLER).allocated(task))
        .isEqualTo(Status.OK);
    assertThat(
            open(false, Verb.ALLOCATE_FUNC)
                .get(ExtensionPoint.EVENT_HANDLER)
                .allocated(task)
                .code())
        .isEqualTo(Status.Code.ERROR);
  }

  @Test
  void deallocateOnly_doesNotCallOnAllocate() {
    EventHandler handler = open(false, Verb.DEALLOCATE_FUNC).get(ExtensionPoint.EVENT_HANDLER);
    FakeTask task = pending("t1");
    assertThat(handler.allocated(task)).isEqualTo(Status.OK);
    assertThat(server.requests()).isEmpty();
    server.answer("v", 500, "");
    handler.deallocated(task);
    assertThat(server.requests("v")).hasSize(1);
  }

  @Test
  void statusCodes_andVotes_mapVolcanosIntegers() {
    assertThat(ExtenderPlugin.statusCode(0)).isEqualTo(Status.Code.ERROR);
    assertThat(ExtenderPlugin.statusCode(1)).isEqualTo(Status.Code.ERROR);
    assertThat(ExtenderPlugin.statusCode(2)).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(ExtenderPlugin.statusCode(3)).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(ExtenderPlugin.statusCode(4)).isEqualTo(Status.Code.WAIT);
    assertThat(ExtenderPlugin.statusCode(5)).isEqualTo(Status.Code.SKIP);
    assertThat(ExtenderPlugin.statusCode(42)).isEqualTo(Status.Code.ERROR);
    assertThat(ExtenderPlugin.vote(7)).isEqualTo(Vote.PERMIT);
    assertThat(ExtenderPlugin.vote(-3)).isEqualTo(Vote.REJECT);
    assertThat(ExtenderPlugin.vote(0)).isEqualTo(Vote.ABSTAIN);
  }
}
