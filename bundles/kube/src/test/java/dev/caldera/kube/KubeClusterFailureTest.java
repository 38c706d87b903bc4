package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Pod;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The API server misbehaving: conflicts, server errors, dropped watches, objects gone. Nothing
 * crashes, no pod is lost, none is bound twice. Binding and eviction are emulated by expectations
 * where the test says so (see {@link MockApi}); without the emulation the CRUD server answers a
 * binding with 409, which is what the conflict test relies on.
 */
class KubeClusterFailureTest {

  private final MockApi api = new MockApi();

  @AfterEach
  void stop() {
    api.close();
  }

  private static SessionResult binds(SessionResult.Bind... binds) {
    return result(List.of(binds), List.of());
  }

  private static SessionResult result(
      List<SessionResult.Bind> binds, List<SessionResult.Eviction> evictions) {
    return new SessionResult(
        "s1", binds, evictions, List.of(), Map.of(), Map.of(), Map.of(), List.of(), null);
  }

  private KubeCluster synced(String identity) throws InterruptedException {
    KubeCluster cluster = api.cluster(identity);
    assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
    return cluster;
  }

  private static Pod cached(KubeCluster cluster, String key) {
    return cluster.snapshot().pods().stream()
        .filter(p -> p.key().equals(key))
        .findFirst()
        .orElse(null);
  }

  @Test
  void bindConflict_leavesThePodPending_countsIt_andALaterSessionBindsIt() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").withoutBindingEmulation().create();
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);

      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();

      assertThat(cluster.counters().bindsFailed()).isEqualTo(1);
      assertThat(cluster.counters().bindsSucceeded()).isZero();
      assertThat(cached(cluster, "ns1/p").nodeName()).isEmpty();
      await(
          "the SchedulerError condition on the server",
          () -> {
            PodCondition c = scheduled(api.getPod("ns1", "p"));
            return c != null && "SchedulerError".equals(c.getReason());
          });
      // The HTTP status, the API server's reason and its message; not fabric8's "An error has
      // occurred.".
      assertThat(scheduled(api.getPod("ns1", "p")).getMessage())
          .matches("failed to bind to node n1: HTTP 409 \\w+: .*already exists.*")
          .doesNotContain("An error has occurred");

      api.emulateBinding("ns1", "p");
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      await("bound", () -> "n1".equals(api.nodeOf("ns1", "p")));
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(1);
      assertThat(api.bindings("ns1", "p")).isEqualTo(1);
    }
  }

  @Test
  void bindAnsweredAlreadyAssigned_showsThePodBound_isNoFailure_andIsNotSentAgain()
      throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").withoutBindingEmulation().create();
    // What a retry gets when the first attempt's answer was lost with the connection.
    api.dispatcher.intercept(
        r ->
            r.getMethod().equals("POST") && r.getPath().endsWith("/namespaces/ns1/pods/p/binding")
                ? new io.fabric8.mockwebserver.http.MockResponse()
                    .setResponseCode(409)
                    .setBody(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                            + "\"reason\":\"Conflict\",\"code\":409,\"message\":\"Operation"
                            + " cannot be fulfilled on pods/binding \\\"p\\\": pod p is already"
                            + " assigned to node \\\"n1\\\"\"}")
                : null);
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);

      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();

      assertThat(cluster.counters().bindsFailed()).isZero();
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(1);
      assertThat(cached(cluster, "ns1/p").nodeName()).isEqualTo("n1");
      assertThat(scheduled(api.getPod("ns1", "p"))).isNull();
      assertThat(api.client().v1().events().inNamespace("ns1").list().getItems())
          .noneMatch(e -> "FailedScheduling".equals(e.getReason()));

      // The next session sees the pod bound and sends nothing for it.
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("POST", "/namespaces/ns1/pods/p/binding")).isEqualTo(1);
    }
  }

  @Test
  void serverErrors_areRetriedWithBackoff() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").create();
    api.dispatcher.fail("POST", "/namespaces/ns1/pods/p/binding", 500, 2);
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      await("bound", () -> "n1".equals(api.nodeOf("ns1", "p")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("POST", "/namespaces/ns1/pods/p/binding")).isEqualTo(3);
      assertThat(cluster.counters().retries()).isGreaterThanOrEqualTo(2);
      assertThat(cluster.counters().bindsFailed()).isZero();
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(1);
    }
  }

  @Test
  void retriesUsedUp_failTheBind_andThePodStaysForTheNextSession() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").create();
    api.dispatcher.fail("POST", "/namespaces/ns1/pods/p/binding", 503, -1);
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      // The default of five attempts.
      assertThat(api.dispatcher.count("POST", "/namespaces/ns1/pods/p/binding")).isEqualTo(5);
      assertThat(cluster.counters().bindsFailed()).isEqualTo(1);
      assertThat(cached(cluster, "ns1/p").nodeName()).isEmpty();
    }
  }

  @Test
  void aBindInFlight_isShownAsBound_andNeverSentTwice() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").create();
    // The first attempts fail, so the bind stays in flight for a while.
    api.dispatcher.fail("POST", "/namespaces/ns1/pods/p/binding", 500, 3);
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      // The next session sees the pod on its node although the server does not know it yet.
      assertThat(cached(cluster, "ns1/p").nodeName()).isEqualTo("n1");
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      await("bound", () -> "n1".equals(api.nodeOf("ns1", "p")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.bindings("ns1", "p")).isEqualTo(1);
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(1);
    }
  }

  @Test
  void stopping_sendsTheWritesOfSessionsAlreadyRun() throws Exception {
    api.node("n1", "32", "64Gi");
    int pods = 20;
    SessionResult.Bind[] binds = new SessionResult.Bind[pods];
    for (int i = 0; i < pods; i++) {
      api.pod("ns1", "p" + i).requests("1", "1Gi").create();
      // Each bind fails once: at the stop most are queued or waiting for their retry.
      api.dispatcher.fail("POST", "/namespaces/ns1/pods/p" + i + "/binding", 500, 1);
      binds[i] = new SessionResult.Bind("ns1/p" + i, "n1");
    }
    KubeCluster cluster = api.cluster("a", b -> b.writeConcurrency(1));
    assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
    await("the pods", () -> cluster.snapshot().pods().size() == pods);

    cluster.apply(binds(binds));
    cluster.close();

    for (int i = 0; i < pods; i++) {
      assertThat(api.nodeOf("ns1", "p" + i)).as("p" + i).isEqualTo("n1");
    }
    assertThat(cluster.counters().bindsSucceeded()).isEqualTo(pods);
    assertThat(cluster.counters().bindsDropped()).isZero();
  }

  @Test
  void podOrNodeGone_failsTheBindWithoutARequest() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").create();
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);
      cluster.apply(
          binds(new SessionResult.Bind("ns1/ghost", "n1"), new SessionResult.Bind("ns1/p", "n9")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(cluster.counters().bindsFailed()).isEqualTo(2);
      assertThat(api.dispatcher.count("POST", "/binding")).isZero();
      await(
          "the SchedulerError condition",
          () -> {
            PodCondition c = scheduled(api.getPod("ns1", "p"));
            return c != null && c.getMessage().contains("node n9 is gone");
          });
    }
  }

  @Test
  void statusWriteErrors_areRetried() throws Exception {
    api.queue("q1", 1);
    api.podGroup("ns1", "job", "q1", 1);
    api.dispatcher.fail("PATCH", "/namespaces/ns1/podgroups/job/status", 503, 2);
    try (KubeCluster cluster = synced("a")) {
      await("the pod group", () -> cluster.snapshot().podGroups().size() == 1);
      cluster.apply(podGroupStatus("ns1/job", "Inqueue"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(phase(api.getPodGroup("ns1", "job"))).isEqualTo("Inqueue");
      assertThat(cluster.counters().statusWriteFailures()).isZero();
      assertThat(cluster.counters().retries()).isGreaterThanOrEqualTo(2);
      // The cache shows the written phase at once (the next session must not re-enqueue).
      assertThat(cluster.snapshot().podGroups().get(0).phase()).isEqualTo("Inqueue");
    }
  }

  @Test
  void podGroupCrdWithoutStatusSubresource_getsStatusThroughTheObject() throws Exception {
    api.queue("q1", 1);
    api.podGroup("ns1", "job", "q1", 1);
    // Volcano's own PodGroup CRD declares no status subresource.
    api.dispatcher.fail("PATCH", "/namespaces/ns1/podgroups/job/status", 404, -1);
    try (KubeCluster cluster = synced("a")) {
      await("the pod group", () -> cluster.snapshot().podGroups().size() == 1);
      cluster.apply(podGroupStatus("ns1/job", "Inqueue"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(phase(api.getPodGroup("ns1", "job"))).isEqualTo("Inqueue");
      assertThat(cluster.counters().statusWriteFailures()).isZero();
    }
  }

  @Test
  void aStatusWriteThatFailsForGood_putsTheServerStateBack() throws Exception {
    api.queue("q1", 1);
    api.podGroup("ns1", "job", "q1", 1);
    api.dispatcher.fail("PATCH", "/namespaces/ns1/podgroups/job/status", 422, -1);
    try (KubeCluster cluster = synced("a")) {
      await("the pod group", () -> cluster.snapshot().podGroups().size() == 1);
      cluster.apply(podGroupStatus("ns1/job", "Inqueue"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(cluster.counters().statusWriteFailures()).isEqualTo(1);
      assertThat(cluster.snapshot().podGroups().get(0).phase()).isEqualTo("Pending");
    }
  }

  @Test
  void evictionApiNotServed_fallsBackToDeleteWithGracePeriod() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "victim")
        .requests("1", "1Gi")
        .runningOn("n1")
        .withoutBindingEmulation()
        .create();
    api.dispatcher.fail("POST", "/namespaces/ns1/pods/victim/eviction", 404, -1);
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/victim") != null);
      cluster.apply(
          result(List.of(), List.of(new SessionResult.Eviction("ns1/victim", "preempt", ""))));
      // Until the server says so, the victim is Releasing (it has a deletion time).
      Pod releasing = cached(cluster, "ns1/victim");
      assertThat(releasing == null || releasing.metadata().deletionTimestamp() != null).isTrue();
      await("deleted", () -> api.getPod("ns1", "victim") == null);
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("DELETE", "/namespaces/ns1/pods/victim")).isEqualTo(1);
      assertThat(cluster.counters().evictionsSucceeded()).isEqualTo(1);
    }
  }

  @Test
  void evictionRefusedByADisruptionBudget_failsAfterRetries_andThePodStays() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "victim")
        .requests("1", "1Gi")
        .runningOn("n1")
        .withoutBindingEmulation()
        .create();
    api.dispatcher.fail("POST", "/namespaces/ns1/pods/victim/eviction", 429, -1);
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/victim") != null);
      cluster.apply(
          result(List.of(), List.of(new SessionResult.Eviction("ns1/victim", "preempt", ""))));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("POST", "/namespaces/ns1/pods/victim/eviction")).isEqualTo(5);
      assertThat(cluster.counters().evictionsFailed()).isEqualTo(1);
      assertThat(api.getPod("ns1", "victim")).isNotNull();
      assertThat(cached(cluster, "ns1/victim").metadata().deletionTimestamp()).isNull();
    }
  }

  @Test
  void droppedWatches_areReestablished_andNoPodIsLost() throws Exception {
    api.node("n1", "8", "8Gi");
    api.queue("default", 1);
    api.pod("ns1", "before").requests("1", "1Gi").create();
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
    try (KubeCluster cluster = synced("a");
        KubeRunner runner =
            new KubeRunner(
                cluster,
                new Scheduler(new ServiceLoaderPluginRegistry()),
                () -> conf,
                Duration.ofMillis(100),
                () -> true)) {
      runner.start();
      await("the first pod bound", () -> "n1".equals(api.nodeOf("ns1", "before")));

      // The pod list and watch now fail, and every open watch is dropped.
      api.dispatcher.failAll("/api/v1/pods");
      api.dispatcher.dropWatches();
      api.pod("ns1", "during").requests("1", "1Gi").create();
      // No session decides on the last state meanwhile: it may be behind the server's.
      await("the source not ready during the outage", () -> !cluster.status().isReady());
      assertThat(cluster.status().reason()).contains("pods");
      assertThat(runner.failures()).isZero();
      assertThat(cached(cluster, "ns1/during")).isNull();
      assertThat(cached(cluster, "ns1/before")).isNotNull();

      api.dispatcher.clearFaults();
      await("the pod created meanwhile bound", () -> "n1".equals(api.nodeOf("ns1", "during")));
      // Reconnect attempts beyond the first list and watch of the pods.
      assertThat(api.dispatcher.count("GET", "/api/v1/pods")).isGreaterThan(2);
      assertThat(api.bindings("ns1", "before")).isEqualTo(1);
      assertThat(api.bindings("ns1", "during")).isEqualTo(1);
    }
  }

  @Test
  void aClosedWriteGate_sendsNothing() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").create();
    try (KubeCluster cluster = synced("a")) {
      await("the pod", () -> cached(cluster, "ns1/p") != null);
      cluster.setWriteGate(() -> false);
      cluster.apply(binds(new SessionResult.Bind("ns1/p", "n1")));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("POST", "/binding")).isZero();
      assertThat(cluster.counters().bindsDropped()).isEqualTo(1);
      assertThat(cached(cluster, "ns1/p").nodeName()).isEmpty();
    }
  }

  @Test
  void stopping_sendsEveryBind_andDropsTheEventsASlowServerHasNotTaken() throws Exception {
    api.node("n1", "8", "16Gi");
    List<SessionResult.Bind> binds = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      api.pod("ns1", "p" + i).requests("1", "1Gi").create();
      binds.add(new SessionResult.Bind("ns1/p" + i, "n1"));
    }
    // Every event write is answered 30 s late: eight Scheduled events, four written at once.
    api.dispatcher.intercept(
        r ->
            r.getMethod().equals("POST") && r.getPath().endsWith("/events")
                ? new io.fabric8.mockwebserver.http.MockResponse()
                    .setResponseCode(201)
                    .setBody("{\"kind\":\"Event\",\"apiVersion\":\"v1\"}")
                    .setBodyDelay(Duration.ofSeconds(30))
                : null);
    KubeCluster cluster = synced("a");
    await("the pods", () -> cluster.snapshot().pods().size() == 8);

    cluster.apply(result(binds, List.of()));
    long start = System.nanoTime();
    cluster.close();
    Duration stopped = Duration.ofNanos(System.nanoTime() - start);

    // The binds were waited for, the events given a second and then dropped: a stop that waited
    // for them would hold the lease from the next leader for the API server's backlog.
    assertThat(cluster.counters().bindsSucceeded()).isEqualTo(8);
    for (int i = 0; i < 8; i++) {
      assertThat(api.nodeOf("ns1", "p" + i)).isEqualTo("n1");
    }
    assertThat(api.dispatcher.count("POST", "/events")).isBetween(1, 8);
    assertThat(stopped).isLessThan(Duration.ofSeconds(6));
  }

  private static SessionResult podGroupStatus(String key, String phase) {
    return new SessionResult(
        "s1",
        List.of(),
        List.of(),
        List.of(),
        Map.of(key, new SessionResult.PodGroupStatus(phase, 0, 0, 0, List.of(), true)),
        Map.of(),
        Map.of(),
        List.of(),
        null);
  }

  private static String phase(GenericKubernetesResource pg) {
    Object status = pg.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m ? String.valueOf(m.get("phase")) : null;
  }

  private static PodCondition scheduled(io.fabric8.kubernetes.api.model.Pod p) {
    if (p == null || p.getStatus() == null) {
      return null;
    }
    return p.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()))
        .findFirst()
        .orElse(null);
  }
}
