package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Real sessions ({@link Scheduler} with the plugins on the test class path) against the fabric8
 * mock API server in CRUD mode: objects created through the API get scheduled, and binds,
 * evictions, statuses and events reach the server. Binding and eviction are emulated by
 * expectations, see {@link MockApi}.
 */
class KubeClusterEndToEndTest {

  private static final String PREEMPT_CONF =
      """
      actions: "enqueue, allocate, preempt"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
      """;

  private final MockApi api = new MockApi();
  private final Scheduler scheduler = new Scheduler(new ServiceLoaderPluginRegistry());

  @AfterEach
  void stop() {
    api.close();
  }

  private KubeRunner runner(KubeCluster cluster, String conf) throws ConfException {
    SchedulerConf c = SchedulerConf.parse(conf, "test conf");
    return new KubeRunner(cluster, scheduler, () -> c, Duration.ofMillis(100), () -> true);
  }

  @Test
  void podsCreatedThroughTheApi_endUpBound_withStatusAndEvents() throws Exception {
    api.node("n1", "4", "8Gi");
    api.node("n2", "4", "8Gi");
    api.queue("default", 1);
    api.queue("q1", 1);
    api.podGroup("ns1", "job", "q1", 3);
    for (int i = 0; i < 3; i++) {
      api.pod("ns1", "job-" + i).requests("2", "1Gi").group("job").create();
    }
    api.pod("ns1", "lonely").requests("1", "1Gi").create();

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner = runner(cluster, SchedulerConf.DEFAULT_CONF)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();

      List<String> pods = List.of("job-0", "job-1", "job-2", "lonely");
      await("every pod bound", () -> pods.stream().allMatch(p -> api.nodeOf("ns1", p) != null));
      // The next session sees the gang bound: the pod group is Running, written to its status.
      await(
          "pod group Running",
          () -> "Running".equals(status(api.getPodGroup("ns1", "job")).get("phase")));
      await(
          "queue q1 allocated 6 cpu",
          () -> {
            Object allocated = status(api.getQueue("q1")).get("allocated");
            return allocated instanceof Map<?, ?> m && "6".equals(String.valueOf(m.get("cpu")));
          });
      await("writes done", () -> cluster.counters().writesInFlight() == 0);
      // No Volcano queue controller here: the scheduler says the queues are Open.
      assertThat(status(api.getQueue("q1"))).containsEntry("state", "Open");
      assertThat(status(api.getQueue("default"))).containsEntry("state", "Open");

      for (String p : pods) {
        assertThat(api.bindings("ns1", p)).as("binding requests for " + p).isEqualTo(1);
      }
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(4);
      assertThat(cluster.counters().bindsFailed()).isZero();
      // Two 2-cpu pods per 4-cpu node: the gang is spread over both nodes.
      assertThat(
              List.of(
                  api.nodeOf("ns1", "job-0"),
                  api.nodeOf("ns1", "job-1"),
                  api.nodeOf("ns1", "job-2")))
          .contains("n1", "n2");
      Map<String, Object> pgStatus = status(api.getPodGroup("ns1", "job"));
      assertThat(pgStatus).containsEntry("running", 0);

      await(
          "Scheduled events",
          () ->
              events("ns1").stream()
                  .filter(e -> "Scheduled".equals(e.getReason()))
                  .map(e -> e.getRegarding().getName())
                  .toList()
                  .containsAll(pods));
      Event scheduled =
          events("ns1").stream()
              .filter(e -> "Scheduled".equals(e.getReason()))
              .filter(e -> "Pod".equals(e.getRegarding().getKind()))
              .findFirst()
              .orElseThrow();
      assertThat(scheduled.getReportingController()).isEqualTo("caldera.dev/scheduler");
      assertThat(scheduled.getReportingInstance()).isEqualTo("a");
      assertThat(scheduled.getType()).isEqualTo("Normal");
      assertThat(scheduled.getRegarding().getUid()).isNotEmpty();
      assertThat(scheduled.getNote()).startsWith("Successfully assigned ns1/");
    }
  }

  @Test
  void unschedulableGang_getsConditionsAndOneEventPerMessage() throws Exception {
    // No pod fits the node (2 cpu each, the node has 1).
    api.node("n1", "1", "8Gi");
    api.queue("q1", 1);
    api.podGroup("ns1", "big", "q1", 3);
    for (int i = 0; i < 3; i++) {
      api.pod("ns1", "big-" + i).requests("2", "1Gi").group("big").create();
    }

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner = runner(cluster, SchedulerConf.DEFAULT_CONF)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
      await(
          "PodScheduled=False on every pod",
          () ->
              List.of("big-0", "big-1", "big-2").stream()
                  .allMatch(p -> scheduledCondition(api.getPod("ns1", p)) != null));
      PodCondition c = scheduledCondition(api.getPod("ns1", "big-0"));
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("Unschedulable");
      assertThat(c.getLastTransitionTime()).isNotEmpty();
      await(
          "pod group condition Unschedulable",
          () -> {
            Object conditions = status(api.getPodGroup("ns1", "big")).get("conditions");
            return conditions instanceof List<?> l
                && l.stream().anyMatch(x -> x.toString().contains("Unschedulable"));
          });
      long sessions = runner.sessions();
      await("three more sessions", () -> runner.sessions() >= sessions + 3);
      await("writes done", () -> cluster.counters().writesInFlight() == 0);

      assertThat(api.nodeOf("ns1", "big-0")).isNull();
      // The same message every session: one event, whose series counts the repeats.
      List<Event> failed =
          events("ns1").stream()
              .filter(e -> "FailedScheduling".equals(e.getReason()))
              .filter(e -> "big-0".equals(e.getRegarding().getName()))
              .toList();
      assertThat(failed).hasSize(1);
      assertThat(failed.get(0).getType()).isEqualTo("Warning");
      List<Event> gang =
          events("ns1").stream()
              .filter(e -> "PodGroup".equals(e.getRegarding().getKind()))
              .filter(e -> "Unschedulable".equals(e.getReason()))
              .toList();
      assertThat(gang).hasSize(1);
      assertThat(cluster.counters().bindsSucceeded()).isZero();
    }
  }

  @Test
  void podNamingAMissingPodGroup_getsAWarningEvent_andTheReasonOnItsCondition() throws Exception {
    api.node("n1", "8", "8Gi");
    api.queue("q1", 1);
    api.pod("ns1", "ghost-0").requests("1", "1Gi").group("ghost").create();

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner = runner(cluster, SchedulerConf.DEFAULT_CONF)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
      await(
          "PodGroupNotFound on the pod",
          () ->
              events("ns1").stream()
                  .anyMatch(
                      e ->
                          "PodGroupNotFound".equals(e.getReason())
                              && "ghost-0".equals(e.getRegarding().getName())));
      await(
          "PodScheduled=False with the reason",
          () -> scheduledCondition(api.getPod("ns1", "ghost-0")) != null);

      Event e =
          events("ns1").stream()
              .filter(x -> "PodGroupNotFound".equals(x.getReason()))
              .findFirst()
              .orElseThrow();
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getNote()).startsWith("pod group ns1/ghost does not exist");
      assertThat(scheduledCondition(api.getPod("ns1", "ghost-0")).getMessage())
          .isEqualTo(e.getNote());
      assertThat(api.nodeOf("ns1", "ghost-0")).isNull();
    }
  }

  @Test
  void queueGoneUnderARunningGroup_itsPodsAreToldSo_andTheRunningOneIsLeftAlone() throws Exception {
    api.node("n1", "8", "8Gi");
    api.podGroup("ns1", "g", "deleted", 1);
    api.pod("ns1", "g-0").requests("1", "1Gi").group("g").runningOn("n1").create();
    api.pod("ns1", "g-1").requests("1", "1Gi").group("g").create();

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner = runner(cluster, SchedulerConf.DEFAULT_CONF)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
      await(
          "QueueNotFound on the pending pod",
          () ->
              events("ns1").stream()
                  .anyMatch(
                      e ->
                          "QueueNotFound".equals(e.getReason())
                              && "g-1".equals(e.getRegarding().getName())));
      long sessions = runner.sessions();
      await("two more sessions", () -> runner.sessions() >= sessions + 2);
      await("writes done", () -> cluster.counters().writesInFlight() == 0);

      assertThat(events("ns1"))
          .filteredOn(e -> "QueueNotFound".equals(e.getReason()))
          .extracting(Event::getNote)
          .allMatch(n -> n.startsWith("queue deleted is gone"));
      assertThat(scheduledCondition(api.getPod("ns1", "g-0"))).isNull();
      assertThat(api.evictions("ns1", "g-0")).isZero();
      assertThat(api.getPod("ns1", "g-0").getSpec().getNodeName()).isEqualTo("n1");
      assertThat(api.nodeOf("ns1", "g-1")).isNull();
    }
  }

  @Test
  void preemption_evictsThroughTheEvictionApi_thenBindsThePreemptor() throws Exception {
    api.priorityClass("low", 10);
    api.priorityClass("high", 100000);
    api.node("n1", "12", "12Gi");
    api.queue("q1", Map.of("weight", 1, "capability", Map.of("cpu", "4", "memory", "4Gi")));
    api.podGroup("ns1", "low", Map.of("queue", "q1", "minMember", 0, "priorityClassName", "low"));
    api.podGroup("ns1", "high", Map.of("queue", "q1", "minMember", 1, "priorityClassName", "high"));
    api.pod("ns1", "preemptee")
        .requests("3", "3Gi")
        .group("low")
        .priorityClass("low")
        .priority(10)
        .label("volcano.sh/preemptable", "true")
        .runningOn("n1")
        .create();
    api.pod("ns1", "preemptor")
        .requests("3", "3Gi")
        .group("high")
        .priorityClass("high")
        .priority(100000)
        .create();

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner = runner(cluster, PREEMPT_CONF)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
      await("the preemptee evicted", () -> api.getPod("ns1", "preemptee") == null);
      await("the preemptor bound", () -> "n1".equals(api.nodeOf("ns1", "preemptor")));
      assertThat(api.evictions("ns1", "preemptee")).isEqualTo(1);
      assertThat(cluster.counters().evictionsSucceeded()).isEqualTo(1);
      assertThat(api.bindings("ns1", "preemptor")).isEqualTo(1);
      await(
          "the Evict event",
          () ->
              events("ns1").stream()
                  .anyMatch(
                      e ->
                          "Evict".equals(e.getReason())
                              && "preemptee".equals(e.getRegarding().getName())));
    }
  }

  @Test
  void aNodeWithAnAllocatableOutOfRange_isLeftOut_andTheEventIsOnTheNode() throws Exception {
    api.node("good", "4", "8Gi");
    api.node("bad", "-4", "8Gi");
    api.queue("default", 1);
    api.pod("ns1", "p").requests("1", "1Gi").create();

    try (KubeCluster cluster = api.cluster("a");
        KubeRunner runner = runner(cluster, SchedulerConf.DEFAULT_CONF)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
      await("the pod bound", () -> "good".equals(api.nodeOf("ns1", "p")));
      await(
          "an event on the node",
          () ->
              api.kubectl.events().v1().events().inAnyNamespace().list().getItems().stream()
                  .anyMatch(
                      e ->
                          "Node".equals(e.getRegarding().getKind())
                              && "bad".equals(e.getRegarding().getName())
                              && "ResourceOutOfRange".equals(e.getReason())));
    }
  }

  private List<Event> events(String namespace) {
    return api.kubectl.events().v1().events().inNamespace(namespace).list().getItems();
  }

  @SuppressWarnings("unchecked") // a generic resource's status is a JSON object
  private static Map<String, Object> status(GenericKubernetesResource r) {
    Object s = r == null ? null : r.getAdditionalProperties().get("status");
    return s instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static PodCondition scheduledCondition(Pod p) {
    if (p == null || p.getStatus() == null) {
      return null;
    }
    return p.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()))
        .findFirst()
        .orElse(null);
  }
}
