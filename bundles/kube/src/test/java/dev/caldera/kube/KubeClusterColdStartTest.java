package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A scheduler that starts on a busy cluster: its first session must see every object the informers
 * listed, or it takes running pods for pending ones (spurious FailedScheduling) and full nodes for
 * free ones (overcommit). fabric8 hands listed objects to event handlers asynchronously, so "the
 * informers have synced" alone does not mean the cache holds them.
 */
class KubeClusterColdStartTest {

  private static final int NODES = 40;
  private static final int PODS_PER_NODE = 8;

  private final MockApi api = new MockApi();
  private final Scheduler scheduler = new Scheduler(new ServiceLoaderPluginRegistry());

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void firstSessionOnAFullCluster_bindsNothing_andReportsNothingAboutRunningPods()
      throws Exception {
    api.emulateSubresourcesOfEveryPod();
    api.queue("default", 1);
    Set<String> running = new HashSet<>();
    for (int n = 0; n < NODES; n++) {
      String node = "node-" + n;
      api.node(node, "8", "32Gi");
      for (int i = 0; i < PODS_PER_NODE; i++) {
        String name = node + "-pod-" + i;
        api.pod("ns1", name)
            .requests("1", "1Gi")
            .runningOn(node)
            .withoutBindingEmulation()
            .create();
        running.add(name);
      }
    }
    for (int i = 0; i < 20; i++) {
      api.pod("ns1", "pending-" + i).requests("1", "1Gi").withoutBindingEmulation().create();
    }
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default conf");

    try (KubeCluster cluster = api.laggingCluster("cold", Duration.ofMillis(2))) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(20))).isTrue();
      ClusterSnapshot first = cluster.snapshot();
      SessionResult result = scheduler.runSession(first, conf);
      cluster.apply(result);
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(20))).isTrue();

      assertThat(first.pods()).as("pods in the first snapshot").hasSize(NODES * PODS_PER_NODE + 20);
      assertThat(result.binds()).as("binds of the first session").isEmpty();
      assertThat(cluster.counters().bindsSucceeded()).isZero();
      List<String> reported =
          events().stream()
              .filter(e -> "FailedScheduling".equals(e.getReason()))
              .map(e -> e.getRegarding().getName())
              .filter(running::contains)
              .toList();
      assertThat(reported).as("FailedScheduling events about running pods").isEmpty();
    }
  }

  @Test
  void aBindPastTheNodesAllocatable_isRefusedByTheWriter_andReported() throws Exception {
    api.emulateSubresourcesOfEveryPod();
    api.queue("default", 1);
    api.node("n1", "8", "32Gi");
    for (int i = 0; i < 7; i++) {
      api.pod("ns1", "run-" + i)
          .requests("1", "1Gi")
          .runningOn("n1")
          .withoutBindingEmulation()
          .create();
    }
    api.pod("ns1", "fits").requests("1", "1Gi").withoutBindingEmulation().create();
    api.pod("ns1", "too-many").requests("1", "1Gi").withoutBindingEmulation().create();

    try (KubeCluster cluster = api.cluster("guard")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(20))).isTrue();
      await("the cache holds all 9 pods", () -> cluster.snapshot().pods().size() == 9);
      // A session working from a stale view decides two binds where one cpu is left.
      cluster.apply(
          new SessionResult(
              "s1",
              List.of(
                  new SessionResult.Bind("ns1/fits", "n1"),
                  new SessionResult.Bind("ns1/too-many", "n1")),
              List.of(),
              List.of(),
              null,
              null,
              null,
              List.of(),
              null));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(20))).isTrue();

      assertThat(api.bindings("ns1", "fits")).isEqualTo(1);
      assertThat(api.bindings("ns1", "too-many")).as("binding requests for too-many").isZero();
      assertThat(cluster.counters().bindsRefused()).isEqualTo(1);
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(1);
      await(
          "a FailedScheduling event naming the resource",
          () ->
              events().stream()
                  .anyMatch(
                      e ->
                          "too-many".equals(e.getRegarding().getName())
                              && e.getNote().contains("cpu")
                              && e.getNote().contains("allocatable")));
      await(
          "the refused pod pending again in the cache",
          () ->
              cluster.snapshot().pods().stream()
                  .anyMatch(p -> p.name().equals("too-many") && p.nodeName().isEmpty()));
    }
  }

  @Test
  void aRelist_isNeverSeenHalfDelivered() throws Exception {
    api.queue("default", 1);
    api.node("n1", "1000", "4000Gi");
    for (int i = 0; i < 100; i++) {
      api.pod("ns1", "before-" + i).requests("1", "1Gi").withoutBindingEmulation().create();
    }
    // Pods watches: held down (500) while pods are created, then answered 410 Gone once, so
    // the informer lists again and hands 150 new pods over, slowly.
    AtomicReference<String> watches = new AtomicReference<>("pass");
    api.dispatcher.intercept(
        r -> {
          boolean podsWatch =
              r.getMethod().equals("GET")
                  && r.getPath().startsWith("/api/v1/pods?")
                  && r.getPath().contains("watch=true");
          if (!podsWatch || watches.get().equals("pass")) {
            return null;
          }
          if (watches.compareAndSet("gone", "pass")) {
            // As an API server whose watch cache no longer has the resource version: an ERROR
            // event with status 410 on the watch, after which clients list again.
            return new MockResponse()
                .withWebSocketUpgrade(
                    new WebSocketListener() {
                      @Override
                      public void onOpen(WebSocket socket, Response response) {
                        socket.send(
                            "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\","
                                + "\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":410,"
                                + "\"reason\":\"Expired\",\"message\":\"too old resource version\"}}");
                      }
                    });
          }
          return new MockResponse().setResponseCode(500).setBody("{}");
        });
    try (KubeCluster cluster = api.laggingCluster("relist", Duration.ofMillis(3))) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(20))).isTrue();
      assertThat(cluster.snapshot().pods()).hasSize(100);
      long listsBefore = podLists();

      watches.set("hold");
      api.dispatcher.dropWatches();
      for (int i = 0; i < 150; i++) {
        api.pod("ns1", "after-" + i).requests("1", "1Gi").withoutBindingEmulation().create();
      }
      watches.set("gone");

      Set<Integer> seen = new java.util.TreeSet<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < deadline && !seen.contains(250)) {
        if (cluster.status().isReady()) {
          try {
            seen.add(cluster.snapshot().pods().size());
          } catch (IllegalStateException listing) {
            // a list being handed over: no snapshot, which is the point
          }
        }
      }
      assertThat(podLists()).as("the informer listed pods again").isGreaterThan(listsBefore);
      assertThat(seen).as("pod counts the sessions could see").isSubsetOf(100, 250).contains(250);
    }
  }

  private long podLists() {
    return api.dispatcher.requestsFrom(dev.caldera.kube.internal.Clients.USER_AGENT).stream()
        .filter(r -> r.access().equals("/pods:list"))
        .count();
  }

  private List<Event> events() {
    return api.kubectl.events().v1().events().inNamespace("ns1").list().getItems();
  }
}
