package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The end-to-end flows against a real API server, opt-in: runs only when {@code
 * CALDERA_TEST_KUBECONFIG} names a kubeconfig, and is reported as skipped otherwise. A bare API
 * server (no kubelet, no controllers) is enough.
 *
 * <p>Installs the CRDs of {@code runtime/deploy/} if they are missing, creates a namespace (with
 * its {@code default} service account, without which pods are refused), two nodes (tolerating the
 * {@code node.kubernetes.io/not-ready} taint new nodes get), a queue, a pod group and pods of a
 * scheduler name of its own (so a Volcano in the cluster leaves them alone); runs the scheduler;
 * checks binds, pod group and queue status, events and an eviction; and removes everything it
 * created (bound pods with grace period 0, the only way without a kubelet).
 */
@EnabledIf(
    value = "kubeconfigGiven",
    disabledReason = "set CALDERA_TEST_KUBECONFIG to a kubeconfig to run against a real cluster")
class RealClusterTest {

  /**
   * Where the kubeconfig is named: the environment variable, or this system property, which {@link
   * RealClusterFlowsOnMockServerTest} sets to run the same flows against the mock server.
   */
  static final String KUBECONFIG_PROPERTY = "caldera.test.kubeconfig";

  static boolean kubeconfigGiven() {
    return kubeconfigName() != null;
  }

  /**
   * The system property first: {@link RealClusterFlowsOnMockServerTest} sets it to point the suite
   * at its mock server, also where the environment variable names a real cluster.
   */
  private static String kubeconfigName() {
    String property = System.getProperty(KUBECONFIG_PROPERTY);
    String name =
        property == null || property.isBlank()
            ? System.getenv("CALDERA_TEST_KUBECONFIG")
            : property;
    return name == null || name.isBlank() ? null : name;
  }

  /** fabric8's mock server streams watches over WebSockets only. */
  private static boolean onMockServer() {
    String property = System.getProperty(KUBECONFIG_PROPERTY);
    return property != null && !property.isBlank();
  }

  private static final String SCHEDULER = "caldera-e2e";
  // New names for every run of the class, also for two runs in one JVM: a namespace of an earlier
  // run may still be terminating on the server.
  private static String RUN;
  private static String NS;
  private static String QUEUE;
  private static String CLOSING_QUEUE;
  private static String PARENT_QUEUE;
  private static String CHILD_QUEUE;
  private static List<String> NODES;

  private static KubernetesClient kubectl;
  private static Path kubeconfig;
  private static final List<String> crdsInstalled = new ArrayList<>();

  @BeforeAll
  static void setUp() throws Exception {
    RUN = UUID.randomUUID().toString().substring(0, 6);
    NS = "caldera-e2e-" + RUN;
    QUEUE = "caldera-e2e-" + RUN;
    CLOSING_QUEUE = "caldera-e2e-" + RUN + "-lc";
    PARENT_QUEUE = "caldera-e2e-" + RUN + "-team";
    CHILD_QUEUE = "caldera-e2e-" + RUN + "-train";
    NODES = List.of("caldera-e2e-" + RUN + "-a", "caldera-e2e-" + RUN + "-b");
    crdsInstalled.clear();
    kubeconfig = Path.of(kubeconfigName());
    Config config = Config.fromKubeconfig(kubeconfig.toFile());
    // A create that timed out and is sent again fails with 409 "already exists": no retries, and
    // time enough for a busy server.
    config.setRequestRetryBackoffLimit(0);
    config.setRequestTimeout(30_000);
    kubectl =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build();
    installCrds();
    RealServerObjects.namespace(kubectl, NS);
    for (String n : NODES) {
      RealServerObjects.node(kubectl, n, "caldera-e2e", RUN, "4", "8Gi");
    }
    kubectl
        .genericKubernetesResources(MockApi.QUEUES)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName(QUEUE)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("weight", 1, "reclaimable", true))
                .build())
        .create();
  }

  private static void installCrds() throws Exception {
    for (HasMetadata document : DeployManifests.load(DeployManifests.crds())) {
      CustomResourceDefinition crd = (CustomResourceDefinition) document;
      String name = crd.getMetadata().getName();
      if (kubectl.apiextensions().v1().customResourceDefinitions().withName(name).get() == null) {
        kubectl.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        crdsInstalled.add(name);
      }
      kubectl
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(name)
          .waitUntilCondition(
              c ->
                  c != null
                      && c.getStatus() != null
                      // A new CRD's conditions are null on a real server until the first is set.
                      && c.getStatus().getConditions() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(
                              x ->
                                  "Established".equals(x.getType())
                                      && "True".equals(x.getStatus())),
              60,
              TimeUnit.SECONDS);
    }
  }

  @AfterAll
  static void tearDown() {
    if (kubectl == null) {
      return;
    }
    kubectl.pods().inNamespace(NS).withGracePeriod(0).delete();
    kubectl.genericKubernetesResources(MockApi.POD_GROUPS).inNamespace(NS).delete();
    kubectl.namespaces().withName(NS).delete();
    kubectl.genericKubernetesResources(MockApi.QUEUES).withName(QUEUE).delete();
    kubectl.genericKubernetesResources(MockApi.QUEUES).withName(CLOSING_QUEUE).delete();
    kubectl.genericKubernetesResources(MockApi.QUEUES).withName(CHILD_QUEUE).delete();
    kubectl.genericKubernetesResources(MockApi.QUEUES).withName(PARENT_QUEUE).delete();
    NODES.forEach(n -> kubectl.nodes().withName(n).delete());
    crdsInstalled.forEach(
        n -> kubectl.apiextensions().v1().customResourceDefinitions().withName(n).delete());
    kubectl.close();
  }

  private static Pod createPod(String name, String group) {
    // Only the test's own nodes: the cluster may have others.
    return kubectl
        .pods()
        .inNamespace(NS)
        .resource(RealServerObjects.pendingPod(NS, name, group, SCHEDULER, "caldera-e2e", RUN))
        .create();
  }

  private static void createPodGroup(String name, int minMember) {
    kubectl
        .genericKubernetesResources(MockApi.POD_GROUPS)
        .inNamespace(NS)
        .resource(RealServerObjects.podGroup(NS, name, QUEUE, minMember))
        .create();
  }

  private static Map<?, ?> queueField(String queue, String field) {
    GenericKubernetesResource q =
        kubectl.genericKubernetesResources(MockApi.QUEUES).withName(queue).get();
    Object value =
        "metadata".equals(field)
            ? q.getMetadata().getAnnotations()
            : q.getAdditionalProperties().get(field);
    return value instanceof Map<?, ?> m ? m : Map.of();
  }

  /** What {@code kubectl get queue NAME} shows in its STATE column ({@code .status.state}). */
  private static Object stateOf(String queue) {
    return queueField(queue, "status").get("state");
  }

  /**
   * The STATE cell of {@code kubectl get queue NAME}: the API server's Table of the queue (what
   * kubectl prints, from the CRD's printer columns), read as kubectl asks for it. On the mock
   * server, which serves no tables, and where the Queue CRD installed has no STATE column (not
   * Caldera's {@code runtime/deploy/crds/}), {@code .status.state}.
   */
  private static Object kubectlGetQueueState(String queue) throws Exception {
    if (onMockServer()) {
      return stateOf(queue);
    }
    String base = kubectl.getMasterUrl().toString().replaceAll("/$", "");
    io.fabric8.kubernetes.client.http.HttpClient http = kubectl.getHttpClient();
    io.fabric8.kubernetes.client.http.HttpResponse<String> r =
        http.sendAsync(
                http.newHttpRequestBuilder()
                    .uri(base + "/apis/scheduling.volcano.sh/v1beta1/queues/" + queue)
                    .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
                    .build(),
                String.class)
            .get(30, TimeUnit.SECONDS);
    assertThat(r.code()).as("GET queue %s as a Table: %s", queue, r.body()).isEqualTo(200);
    com.fasterxml.jackson.databind.JsonNode table =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
    int column = -1;
    for (int i = 0; i < table.path("columnDefinitions").size(); i++) {
      if ("STATE".equalsIgnoreCase(table.path("columnDefinitions").get(i).path("name").asText())) {
        column = i;
      }
    }
    if (column < 0) {
      return stateOf(queue);
    }
    return table.path("rows").get(0).path("cells").get(column).asText();
  }

  /** The pods of pod group bud being deleted or gone. */
  private static List<String> budEvicted() {
    List<String> evicted = new ArrayList<>();
    for (String pod : List.of("bud-0", "bud-1")) {
      Pod p = kubectl.pods().inNamespace(NS).withName(pod).get();
      if (p == null || p.getMetadata().getDeletionTimestamp() != null) {
        evicted.add(pod);
      }
    }
    return evicted;
  }

  private static void createQueue(String name, String parent) {
    Map<String, Object> spec = new java.util.LinkedHashMap<>();
    spec.put("weight", 1);
    spec.put("reclaimable", true);
    if (parent != null) {
      spec.put("parent", parent);
    }
    kubectl
        .genericKubernetesResources(MockApi.QUEUES)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build())
        .create();
  }

  /** The scheduler's options against the test's server, under {@code identity}. */
  private static KubeOptions options(String identity) {
    return KubeOptions.builder()
        .kubeconfig(kubeconfig)
        .schedulerName(SCHEDULER)
        .identity(identity)
        .metricsInterval(Duration.ZERO)
        .httpWatches(!onMockServer())
        .build();
  }

  /**
   * Whether Volcano is installed (its bus API group served), so its queue controller keeps the
   * queues' states. The mock server answers any path: only the APIGroup itself counts.
   */
  private static boolean volcanoServed() {
    io.fabric8.kubernetes.api.model.APIGroup bus = kubectl.getApiGroup("bus.volcano.sh");
    return bus != null && "bus.volcano.sh".equals(bus.getName());
  }

  private static void deleteNow(String pod) {
    kubectl.pods().inNamespace(NS).withName(pod).withGracePeriod(0).delete();
  }

  private static String nodeOf(String pod) {
    Pod p = kubectl.pods().inNamespace(NS).withName(pod).get();
    return p == null ? null : p.getSpec().getNodeName();
  }

  @Test
  void podsAreBound_statusAndEventsWritten_andAnEvictionReachesTheServer() throws Exception {
    createPodGroup("gang", 2);
    createPod("gang-0", "gang");
    createPod("gang-1", "gang");
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
    KubeOptions options = options("e2e-" + RUN);
    try (KubeCluster cluster = KubeCluster.connect(options)) {
      KubeRunner runner =
          new KubeRunner(
              cluster,
              new Scheduler(new ServiceLoaderPluginRegistry()),
              () -> conf,
              Duration.ofMillis(500),
              () -> true);
      assertThat(cluster.awaitSync(Duration.ofSeconds(60))).isTrue();
      runner.start();
      await(
          "both pods bound",
          Duration.ofSeconds(60),
          () -> nodeOf("gang-0") != null && nodeOf("gang-1") != null);
      assertThat(NODES).contains(nodeOf("gang-0"), nodeOf("gang-1"));
      await(
          "the pod group Running",
          Duration.ofSeconds(30),
          () -> {
            GenericKubernetesResource pg =
                kubectl
                    .genericKubernetesResources(MockApi.POD_GROUPS)
                    .inNamespace(NS)
                    .withName("gang")
                    .get();
            Object status = pg.getAdditionalProperties().get("status");
            return status instanceof Map<?, ?> m && "Running".equals(m.get("phase"));
          });
      await(
          "the queue's allocated",
          Duration.ofSeconds(30),
          () -> {
            Object status =
                kubectl
                    .genericKubernetesResources(MockApi.QUEUES)
                    .withName(QUEUE)
                    .get()
                    .getAdditionalProperties()
                    .get("status");
            return status instanceof Map<?, ?> m
                && m.get("allocated") instanceof Map<?, ?> a
                && "2".equals(String.valueOf(a.get("cpu")));
          });
      await(
          "Scheduled events",
          Duration.ofSeconds(30),
          () -> {
            List<Event> events = kubectl.events().v1().events().inNamespace(NS).list().getItems();
            return events.stream()
                    .filter(e -> "Scheduled".equals(e.getReason()))
                    .filter(e -> "caldera.dev/scheduler".equals(e.getReportingController()))
                    .count()
                >= 2;
          });

      // No more sessions: the eviction below is the only decision.
      runner.close();
      cluster.apply(
          new SessionResult(
              "e2e",
              List.of(),
              List.of(new SessionResult.Eviction(NS + "/gang-1", "preempt", "")),
              List.of(),
              Map.of(),
              Map.of(),
              Map.of(),
              List.of(),
              null));
      // Without a kubelet the evicted pod stays terminating: it has a deletion time.
      await(
          "gang-1 terminating",
          Duration.ofSeconds(30),
          () -> {
            Pod p = kubectl.pods().inNamespace(NS).withName("gang-1").get();
            return p == null || p.getMetadata().getDeletionTimestamp() != null;
          });
      // The server may show the pod terminating a moment before the writer has counted its answer.
      await(
          "the eviction counted",
          Duration.ofSeconds(10),
          () -> cluster.counters().evictionsSucceeded() == 1);
      assertThat(cluster.counters().bindsFailed()).isZero();
    }
  }

  /**
   * Close, drain and open of a queue where Caldera keeps queue states (no Volcano: {@code
   * bus.volcano.sh} not served), each seen on the server as {@code kubectl get queue} shows it;
   * beside Volcano the command is refused and names {@code vcctl}. Without a kubelet an evicted pod
   * stays terminating: the test deletes it as a kubelet would once its containers stopped.
   */
  @Test
  void queueCloseDrainOpen_areWrittenToTheQueuesStatus() throws Exception {
    kubectl
        .genericKubernetesResources(MockApi.QUEUES)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName(CLOSING_QUEUE)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("weight", 1, "reclaimable", true))
                .build())
        .create();
    kubectl
        .genericKubernetesResources(MockApi.POD_GROUPS)
        .inNamespace(NS)
        .resource(RealServerObjects.podGroup(NS, "lc", CLOSING_QUEUE, 1))
        .create();
    createPod("lc-0", "lc");
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
    KubeOptions options = options("e2e-lc-" + RUN);
    boolean volcano = volcanoServed();
    try (KubeCluster cluster = KubeCluster.connect(options);
        KubeRunner runner =
            new KubeRunner(
                cluster,
                new Scheduler(new ServiceLoaderPluginRegistry()),
                () -> conf,
                Duration.ofMillis(500),
                () -> true)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(60))).isTrue();
      if (volcano) {
        dev.caldera.framework.loop.QueueLifecycle.Outcome refused =
            cluster.queueCommand(
                CLOSING_QUEUE, dev.caldera.framework.loop.QueueLifecycle.Command.CLOSE);
        assertThat(refused.result())
            .isEqualTo(dev.caldera.framework.loop.QueueLifecycle.Result.KEPT_BY_VOLCANO);
        assertThat(refused.message())
            .contains("vcctl queue operate --name " + CLOSING_QUEUE + " --action close");
        return;
      }
      runner.start();
      await("lc-0 bound", Duration.ofSeconds(60), () -> nodeOf("lc-0") != null);
      await("the queue Open", Duration.ofSeconds(30), () -> "Open".equals(stateOf(CLOSING_QUEUE)));

      var closed =
          cluster.queueCommand(
              CLOSING_QUEUE, dev.caldera.framework.loop.QueueLifecycle.Command.CLOSE);
      assertThat(closed.state()).as(closed.message()).isEqualTo("Closing");
      assertThat(kubectlGetQueueState(CLOSING_QUEUE)).isEqualTo("Closing");
      kubectl
          .genericKubernetesResources(MockApi.POD_GROUPS)
          .inNamespace(NS)
          .resource(RealServerObjects.podGroup(NS, "lc-late", CLOSING_QUEUE, 1))
          .create();
      createPod("lc-late-0", "lc-late");
      await(
          "QueueClosed event on the late pod group",
          Duration.ofSeconds(30),
          () ->
              kubectl.events().v1().events().inNamespace(NS).list().getItems().stream()
                  .anyMatch(
                      e ->
                          "QueueClosed".equals(e.getReason())
                              && "lc-late".equals(e.getRegarding().getName())));
      assertThat(nodeOf("lc-late-0")).as("a Closing queue admits no new pod group").isNull();
      assertThat(nodeOf("lc-0")).as("its running pod goes on").isNotNull();
      assertThat(kubectlGetQueueState(CLOSING_QUEUE)).isEqualTo("Closing");

      var drained =
          cluster.queueCommand(
              CLOSING_QUEUE, dev.caldera.framework.loop.QueueLifecycle.Command.DRAIN);
      assertThat(drained.state()).as(drained.message()).isEqualTo("Closing");
      assertThat(queueField(CLOSING_QUEUE, "metadata").get("caldera.dev/drain")).isEqualTo("true");
      await(
          "lc-0 evicted",
          Duration.ofSeconds(30),
          () -> {
            Pod p = kubectl.pods().inNamespace(NS).withName("lc-0").get();
            return p == null || p.getMetadata().getDeletionTimestamp() != null;
          });
      deleteNow("lc-0");
      await(
          "the queue Closed",
          Duration.ofSeconds(30),
          () -> "Closed".equals(stateOf(CLOSING_QUEUE)));
      assertThat(kubectlGetQueueState(CLOSING_QUEUE)).isEqualTo("Closed");
      assertThat(nodeOf("lc-late-0")).as("a Closed queue admits nothing").isNull();

      var opened =
          cluster.queueCommand(
              CLOSING_QUEUE, dev.caldera.framework.loop.QueueLifecycle.Command.OPEN);
      assertThat(opened.state()).as(opened.message()).isEqualTo("Open");
      // A real server removes it (merge patch null); the mock server keeps the key with null.
      assertThat(queueField(CLOSING_QUEUE, "metadata").get("caldera.dev/drain")).isNull();
      await("lc-late-0 bound once Open", Duration.ofSeconds(60), () -> nodeOf("lc-late-0") != null);
      assertThat(kubectlGetQueueState(CLOSING_QUEUE)).isEqualTo("Open");
    }
  }

  /**
   * The queue tree where Caldera keeps queue states: {@code root} is never closed; draining a
   * parent drains the queue under it too, each state seen as {@code kubectl get queue} shows it;
   * the drain evicts no more of a job than its {@code caldera.dev/eviction-budget} allows (one of
   * two pods; DrainBlocked on the queue in namespace {@code default} says why); a child is not
   * opened while its parent is Closing; opening the parent leaves the child Closing until it is
   * opened itself.
   */
  @Test
  void queueTree_rootNeverClosed_drainOfAParentReachesTheChild_andKeepsToTheBudget()
      throws Exception {
    createQueue(PARENT_QUEUE, null);
    createQueue(CHILD_QUEUE, PARENT_QUEUE);
    GenericKubernetesResource group = RealServerObjects.podGroup(NS, "bud", CHILD_QUEUE, 1);
    group.getMetadata().setAnnotations(Map.of("caldera.dev/eviction-budget", "1/1h"));
    kubectl.genericKubernetesResources(MockApi.POD_GROUPS).inNamespace(NS).resource(group).create();
    createPod("bud-0", "bud");
    createPod("bud-1", "bud");
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
    KubeOptions options = options("e2e-tree-" + RUN);
    if (volcanoServed()) {
      return; // Volcano keeps the states: queueCloseDrainOpen_areWrittenToTheQueuesStatus checks it
    }
    var close = dev.caldera.framework.loop.QueueLifecycle.Command.CLOSE;
    var drain = dev.caldera.framework.loop.QueueLifecycle.Command.DRAIN;
    var open = dev.caldera.framework.loop.QueueLifecycle.Command.OPEN;
    var refused = dev.caldera.framework.loop.QueueLifecycle.Result.REFUSED;
    try (KubeCluster cluster = KubeCluster.connect(options);
        KubeRunner runner =
            new KubeRunner(
                cluster,
                Scheduler.carryingState(new ServiceLoaderPluginRegistry()),
                () -> conf,
                Duration.ofMillis(500),
                () -> true)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(60))).isTrue();
      var root = cluster.queueCommand("root", close);
      assertThat(root.result()).as(root.message()).isEqualTo(refused);
      assertThat(root.message()).startsWith("queue root cannot be closed");
      runner.start();
      await(
          "bud-0 and bud-1 bound",
          Duration.ofSeconds(60),
          () -> nodeOf("bud-0") != null && nodeOf("bud-1") != null);

      var drained = cluster.queueCommand(PARENT_QUEUE, drain);
      assertThat(drained.state()).as(drained.message()).isEqualTo("Closing");
      assertThat(drained.message()).contains("so is the queue under it: " + CHILD_QUEUE);
      // Nothing runs in the parent itself: a session may close it at once.
      assertThat(kubectlGetQueueState(PARENT_QUEUE)).isIn("Closing", "Closed");
      assertThat(kubectlGetQueueState(CHILD_QUEUE)).isEqualTo("Closing");
      assertThat(queueField(CHILD_QUEUE, "metadata").get("caldera.dev/drain")).isEqualTo("true");
      // The eviction is written after the session that decides it: wait for it, then for the
      // refusal of the next sessions, and count again.
      await("one pod of bud evicted", Duration.ofSeconds(30), () -> budEvicted().size() == 1);
      await(
          "DrainBlocked on queue " + CHILD_QUEUE + " naming the budget",
          Duration.ofSeconds(30),
          () ->
              kubectl.events().v1().events().inNamespace("default").list().getItems().stream()
                  .anyMatch(
                      e ->
                          "DrainBlocked".equals(e.getReason())
                              && CHILD_QUEUE.equals(e.getRegarding().getName())
                              && e.getNote() != null
                              && e.getNote().contains("eviction budget of job " + NS + "/bud")));
      long sessions = runner.sessions();
      await("three more sessions", Duration.ofSeconds(30), () -> runner.sessions() >= sessions + 3);
      assertThat(budEvicted()).as("pods of bud evicted by the drain (budget 1/1h)").hasSize(1);

      var child = cluster.queueCommand(CHILD_QUEUE, open);
      assertThat(child.result()).as(child.message()).isEqualTo(refused);
      assertThat(child.message()).contains("while its parent queue " + PARENT_QUEUE + " is");
      var parent = cluster.queueCommand(PARENT_QUEUE, open);
      assertThat(parent.state()).as(parent.message()).isEqualTo("Open");
      assertThat(kubectlGetQueueState(PARENT_QUEUE)).isEqualTo("Open");
      assertThat(kubectlGetQueueState(CHILD_QUEUE)).isEqualTo("Closing");
      assertThat(cluster.queueCommand(CHILD_QUEUE, open).state()).isEqualTo("Open");
      assertThat(kubectlGetQueueState(CHILD_QUEUE)).isEqualTo("Open");
      assertThat(queueField(CHILD_QUEUE, "metadata").get("caldera.dev/drain")).isNull();
    }
  }

  @Test
  void twoReplicas_onlyTheLeaderBinds() throws Exception {
    createPodGroup("solo", 1);
    createPod("solo-0", "solo");
    SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
    LeaderElection.Options lease =
        new LeaderElection.Options(
            NS,
            "caldera-scheduler",
            Duration.ofSeconds(6),
            Duration.ofSeconds(4),
            Duration.ofSeconds(1));
    List<KubeCluster> clusters = new ArrayList<>();
    List<AutoCloseable> closing = new ArrayList<>();
    try {
      for (String id : List.of("e2e-a-" + RUN, "e2e-b-" + RUN)) {
        KubeCluster c = KubeCluster.connect(options(id));
        LeaderElection e = c.leaderElection(lease);
        KubeRunner r =
            new KubeRunner(
                c,
                new Scheduler(new ServiceLoaderPluginRegistry()),
                () -> conf,
                Duration.ofMillis(500),
                e::isLeader);
        assertThat(c.awaitSync(Duration.ofSeconds(60))).isTrue();
        r.start();
        clusters.add(c);
        closing.add(0, c);
        closing.add(0, e);
        closing.add(0, r);
      }
      await("solo-0 bound", Duration.ofSeconds(60), () -> nodeOf("solo-0") != null);
      await(
          "writes done",
          Duration.ofSeconds(30),
          () -> clusters.stream().allMatch(c -> c.counters().writesInFlight() == 0));
      long binders = clusters.stream().filter(c -> c.counters().bindsSucceeded() > 0).count();
      assertThat(binders).isEqualTo(1);
    } finally {
      for (AutoCloseable c : closing) {
        c.close();
      }
    }
  }
}
