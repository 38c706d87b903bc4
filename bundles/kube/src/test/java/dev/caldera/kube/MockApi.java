package dev.caldera.kube;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.kube.internal.ApiTrouble;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fabric8 mock API server in CRUD mode, with faults ({@link FaultyDispatcher}), a client that
 * plays {@code kubectl}, fixtures for the objects the scheduler reads, and emulation of the calls
 * the CRUD mode does not implement.
 *
 * <p><b>Binding and eviction are emulated with explicit expectations.</b> The mock server does not
 * implement {@code POST pods/{name}/binding} (it answers 409, reading the path as the creation of a
 * second object) nor {@code pods/{name}/eviction}. {@link #pod} registers, per pod, an expectation
 * that answers 201 and then, asynchronously (a synchronous call into the server from the reply
 * deadlocks its event loop), does what the API server would: sets {@code spec.nodeName} and {@code
 * PodScheduled=True}, or deletes the pod. Each such request is counted per pod.
 */
public final class MockApi implements AutoCloseable {

  static final ResourceDefinitionContext QUEUES =
      new ResourceDefinitionContext.Builder()
          .withGroup("scheduling.volcano.sh")
          .withVersion("v1beta1")
          .withKind("Queue")
          .withPlural("queues")
          .withNamespaced(false)
          .build();

  static final ResourceDefinitionContext POD_GROUPS =
      new ResourceDefinitionContext.Builder()
          .withGroup("scheduling.volcano.sh")
          .withVersion("v1beta1")
          .withKind("PodGroup")
          .withPlural("podgroups")
          .withNamespaced(true)
          .build();

  private static final ObjectMapper JSON = new ObjectMapper();

  final KubernetesMockServer server;
  final FaultyDispatcher dispatcher;
  final KubernetesClient kubectl;
  private final Map<String, AtomicInteger> bindings = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> evictions = new ConcurrentHashMap<>();
  private final List<KubernetesClient> clients = new ArrayList<>();

  public MockApi() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    dispatcher = new FaultyDispatcher(responses);
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
    server.init();
    kubectl = client();
  }

  /**
   * A new client on the server, as a scheduler replica has: no request retries inside fabric8 (the
   * writer retries), quick watch reconnects.
   */
  public KubernetesClient client() {
    return client(null);
  }

  /**
   * A client as {@link #client()} whose informers and watches call back on {@code taskExecutor}
   * (null: fabric8's own), e.g. a slow one that stands for a busy consumer.
   */
  KubernetesClient client(java.util.concurrent.Executor taskExecutor) {
    return client(taskExecutor, null);
  }

  /** A client that sends the scheduler's User-Agent, so its requests are checked against RBAC. */
  KubernetesClient schedulerClient(java.util.concurrent.Executor taskExecutor) {
    return client(taskExecutor, dev.caldera.kube.internal.Clients.USER_AGENT);
  }

  private KubernetesClient client(java.util.concurrent.Executor taskExecutor, String userAgent) {
    return client(taskExecutor, userAgent, new JdkHttpClientFactory());
  }

  private KubernetesClient client(
      java.util.concurrent.Executor taskExecutor,
      String userAgent,
      io.fabric8.kubernetes.client.http.HttpClient.Factory http) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(server.url("/"))
            .withNamespace("test")
            .withTrustCerts(true)
            .withHttp2Disable(true)
            .withRequestRetryBackoffLimit(0)
            .withWatchReconnectInterval(50)
            .withRequestTimeout(5_000)
            .withConnectionTimeout(2_000)
            .build();
    if (userAgent != null) {
      config.setUserAgent(userAgent);
    }
    KubernetesClientBuilder builder =
        new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(http);
    if (taskExecutor != null) {
      builder.withTaskExecutor(taskExecutor);
    }
    if (userAgent != null) {
      // The scheduler's client reads JSON as Clients#create has it read (no class path search).
      builder.withKubernetesSerialization(dev.caldera.kube.internal.Clients.serialization());
    }
    KubernetesClient c = builder.build();
    synchronized (clients) {
      clients.add(c);
    }
    return c;
  }

  /** See {@link FaultyDispatcher#fail}. */
  public void failRequests(String method, String pathSuffix, int code, int times) {
    dispatcher.fail(method, pathSuffix, code, times);
  }

  /** Every request whose path contains {@code part} fails with 500 until {@link #clearFaults}. */
  public void failAll(String part) {
    dispatcher.failAll(part);
  }

  public void clearFaults() {
    dispatcher.clearFaults();
  }

  /** How many requests with {@code method} had a path ending with {@code pathSuffix}. */
  public int requests(String method, String pathSuffix) {
    return dispatcher.count(method, pathSuffix);
  }

  /** The server's base URL. */
  public String url() {
    return server.url("/");
  }

  /** A {@link KubeCluster} on its own client, scheduling pods of {@code volcano}. */
  KubeCluster cluster(String identity) {
    return cluster(identity, b -> {});
  }

  /** A {@link KubeCluster} with test timings, then {@code options} applied. */
  KubeCluster cluster(String identity, java.util.function.Consumer<KubeOptions.Builder> options) {
    KubeOptions.Builder b = testOptions(identity);
    options.accept(b);
    // As Clients#create has it: every answer the client gets is seen for server errors.
    ApiTrouble trouble = new ApiTrouble();
    KubernetesClient client =
        client(
            null,
            dev.caldera.kube.internal.Clients.USER_AGENT,
            trouble.on(new JdkHttpClientFactory()));
    return KubeCluster.connect(client, trouble, b.build());
  }

  /** Test timings: quick backoff, no metrics polling. */
  private static KubeOptions.Builder testOptions(String identity) {
    return KubeOptions.builder()
        .identity(identity)
        .backoff(Duration.ofMillis(20), Duration.ofMillis(200))
        .metricsInterval(Duration.ZERO);
  }

  /**
   * A {@link KubeCluster} whose informers hand each object to the cache {@code lag} late, as on a
   * loaded machine where the cache falls behind what the informers have listed.
   */
  KubeCluster laggingCluster(String identity, Duration lag) {
    java.util.concurrent.ExecutorService pool = callbackPool("lagging-informer-callbacks");
    java.util.concurrent.Executor slow =
        task ->
            pool.execute(
                () -> {
                  try {
                    Thread.sleep(lag.toMillis());
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  task.run();
                });
    return KubeCluster.connect(schedulerClient(slow), testOptions(identity).build());
  }

  /** Daemon threads, made as needed, for a client's callbacks. */
  private static java.util.concurrent.ExecutorService callbackPool(String threadName) {
    return java.util.concurrent.Executors.newCachedThreadPool(
        r -> {
          Thread t = new Thread(r, threadName);
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * A {@link KubeCluster} whose informers hand nothing to the cache while {@code held} is closed:
   * what the server changes meanwhile, the cache learns only when it opens, as when a watch falls
   * behind.
   */
  KubeCluster heldCluster(String identity, HeldCallbacks held) {
    return KubeCluster.connect(schedulerClient(held), testOptions(identity).build());
  }

  /**
   * The client's callbacks (watch events, informer handlers), held while held; see {@link
   * #heldCluster}.
   */
  static final class HeldCallbacks implements java.util.concurrent.Executor {
    private final java.util.concurrent.ExecutorService pool =
        callbackPool("held-informer-callbacks");
    private final java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(0);
    private volatile boolean held;

    void hold() {
      permits.drainPermits();
      held = true;
    }

    void release() {
      held = false;
      permits.release(Integer.MAX_VALUE / 2);
    }

    @Override
    public void execute(Runnable task) {
      pool.execute(
          () -> {
            if (held) {
              permits.acquireUninterruptibly();
            }
            task.run();
          });
    }
  }

  // ---- objects -------------------------------------------------------------------------------

  public void node(String name, String cpu, String memory) {
    RealServerObjects.node(kubectl, name, null, null, cpu, memory);
  }

  public void queue(String name, int weight) {
    queue(name, Map.of("weight", weight, "reclaimable", true));
  }

  /** A queue whose {@code status.state} is already written (by Volcano's controller, say). */
  void queueWithState(String name, String state) {
    queue(name, Map.of("weight", 1), Map.of("state", state));
  }

  void queue(String name, Map<String, Object> spec) {
    queue(name, spec, null);
  }

  private void queue(String name, Map<String, Object> spec, Map<String, Object> status) {
    GenericKubernetesResourceBuilder queue =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.volcano.sh/v1beta1")
            .withKind("Queue")
            .withNewMetadata()
            .withName(name)
            .endMetadata()
            .addToAdditionalProperties("spec", spec);
    if (status != null) {
      queue.addToAdditionalProperties("status", status);
    }
    kubectl.genericKubernetesResources(QUEUES).resource(queue.build()).create();
  }

  void podGroup(String namespace, String name, String queue, int minMember) {
    podGroup(namespace, name, Map.of("queue", queue, "minMember", minMember));
  }

  void podGroup(String namespace, String name, Map<String, Object> spec) {
    kubectl
        .genericKubernetesResources(POD_GROUPS)
        .inNamespace(namespace)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("PodGroup")
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .addToAdditionalProperties("spec", spec)
                .build())
        .create();
  }

  /** The metrics API's usage of node {@code name} (metrics.k8s.io/v1beta1 NodeMetrics). */
  void nodeMetrics(String name, String cpu, String memory, String timestamp) {
    kubectl
        .genericKubernetesResources(
            new ResourceDefinitionContext.Builder()
                .withGroup("metrics.k8s.io")
                .withVersion("v1beta1")
                .withKind("NodeMetrics")
                .withPlural("nodes")
                .withNamespaced(false)
                .build())
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("metrics.k8s.io/v1beta1")
                .withKind("NodeMetrics")
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToAdditionalProperties("timestamp", timestamp)
                .addToAdditionalProperties("window", "30s")
                .addToAdditionalProperties("usage", Map.of("cpu", cpu, "memory", memory))
                .build())
        .create();
  }

  void priorityClass(String name, int value) {
    kubectl
        .scheduling()
        .v1()
        .priorityClasses()
        .resource(
            new io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withValue(value)
                .build())
        .create();
  }

  GenericKubernetesResource getPodGroup(String namespace, String name) {
    return kubectl
        .genericKubernetesResources(POD_GROUPS)
        .inNamespace(namespace)
        .withName(name)
        .get();
  }

  GenericKubernetesResource getQueue(String name) {
    return kubectl.genericKubernetesResources(QUEUES).withName(name).get();
  }

  /** Starts a pod fixture; {@link TestPod#create()} creates it. */
  public TestPod pod(String namespace, String name) {
    return new TestPod(namespace, name);
  }

  Pod getPod(String namespace, String name) {
    return kubectl.pods().inNamespace(namespace).withName(name).get();
  }

  /** The pod's node, or null while unbound (or gone). */
  public String nodeOf(String namespace, String name) {
    Pod p = getPod(namespace, name);
    return p == null || p.getSpec() == null ? null : p.getSpec().getNodeName();
  }

  /** How many binding requests for the pod the server answered with 201. */
  int bindings(String namespace, String name) {
    AtomicInteger n = bindings.get(namespace + "/" + name);
    return n == null ? 0 : n.get();
  }

  int evictions(String namespace, String name) {
    AtomicInteger n = evictions.get(namespace + "/" + name);
    return n == null ? 0 : n.get();
  }

  /** Emulates {@code POST pods/{name}/binding}; see the class comment. */
  void emulateBinding(String namespace, String name) {
    bindings.putIfAbsent(namespace + "/" + name, new AtomicInteger());
    server
        .expect()
        .post()
        .withPath("/api/v1/namespaces/" + namespace + "/pods/" + name + "/binding")
        .andReply(201, request -> bind(namespace, name, request.getBody().readUtf8()))
        .always();
  }

  /** Emulates {@code POST pods/{name}/eviction} (policy/v1); see the class comment. */
  void emulateEviction(String namespace, String name) {
    evictions.putIfAbsent(namespace + "/" + name, new AtomicInteger());
    server
        .expect()
        .post()
        .withPath("/api/v1/namespaces/" + namespace + "/pods/" + name + "/eviction")
        .andReply(201, request -> evict(namespace, name))
        .always();
  }

  private static final Pattern POD_SUBRESOURCE =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/(binding|eviction)");

  /**
   * Emulates binding and eviction for every pod, also pods that other clients create (the flows of
   * {@link RealClusterTest} run against this server), instead of per pod fixture.
   */
  void emulateSubresourcesOfEveryPod() {
    dispatcher.intercept(
        request -> {
          String path = request.getPath();
          int q = path.indexOf('?');
          Matcher m = POD_SUBRESOURCE.matcher(q < 0 ? path : path.substring(0, q));
          if (!request.getMethod().equals("POST") || !m.matches()) {
            return null;
          }
          String namespace = m.group(1);
          String name = m.group(2);
          Status status;
          if (m.group(3).equals("binding")) {
            bindings.computeIfAbsent(namespace + "/" + name, k -> new AtomicInteger());
            status = bind(namespace, name, request.getBody().readUtf8());
          } else {
            evictions.computeIfAbsent(namespace + "/" + name, k -> new AtomicInteger());
            status = evict(namespace, name);
          }
          try {
            return new MockResponse().setResponseCode(201).setBody(JSON.writeValueAsString(status));
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  /**
   * What the API server does for a binding: sets {@code spec.nodeName} and {@code
   * PodScheduled=True}, asynchronously (a synchronous call into the server from the reply deadlocks
   * its event loop).
   */
  private Status bind(String namespace, String name, String binding) {
    bindings.get(namespace + "/" + name).incrementAndGet();
    String node = targetNode(binding);
    CompletableFuture.runAsync(
        () ->
            kubectl
                .pods()
                .inNamespace(namespace)
                .withName(name)
                .edit(
                    p -> {
                      p.getSpec().setNodeName(node);
                      if (p.getStatus() == null) {
                        p.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
                      }
                      p.getStatus()
                          .getConditions()
                          .removeIf(c -> "PodScheduled".equals(c.getType()));
                      p.getStatus()
                          .getConditions()
                          .add(
                              new PodConditionBuilder()
                                  .withType("PodScheduled")
                                  .withStatus("True")
                                  .build());
                      return p;
                    }));
    return new StatusBuilder().withStatus("Success").withCode(201).build();
  }

  /** What the API server does for an eviction without a kubelet: deletes the pod. */
  private Status evict(String namespace, String name) {
    evictions.get(namespace + "/" + name).incrementAndGet();
    CompletableFuture.runAsync(() -> kubectl.pods().inNamespace(namespace).withName(name).delete());
    return new StatusBuilder().withStatus("Success").withCode(201).build();
  }

  private static String targetNode(String binding) {
    try {
      return JSON.readTree(binding).path("target").path("name").asText();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Waits for {@code condition}, polling; fails the test with {@code what} after the timeout. */
  public static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("timed out after " + timeout + " waiting for: " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted waiting for: " + what);
      }
    }
  }

  public static void await(String what, BooleanSupplier condition) {
    await(what, Duration.ofSeconds(10), condition);
  }

  /**
   * Every request the scheduler sent (User-Agent {@code caldera-scheduler}: the clusters of {@link
   * #cluster} and any kubeconfig client of Caldera's) that {@code base/rbac.yaml} does not grant.
   */
  List<ApiRequest> deniedByShippedRbac() {
    RbacRules rules;
    try {
      rules = RbacRules.shipped();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read runtime/deploy/base/rbac.yaml", e);
    }
    return dispatcher.requestsFrom(dev.caldera.kube.internal.Clients.USER_AGENT).stream()
        .filter(r -> !r.verb().isEmpty() && !rules.allows(r))
        .toList();
  }

  /**
   * Stops the server, and fails the test if the scheduler sent a request the shipped RBAC denies:
   * every end-to-end flow on the mock server doubles as an RBAC conformance check.
   */
  @Override
  public void close() {
    synchronized (clients) {
      clients.forEach(KubernetesClient::close);
    }
    server.destroy();
    List<ApiRequest> denied = deniedByShippedRbac();
    if (!denied.isEmpty()) {
      throw new AssertionError(
          "runtime/deploy/base/rbac.yaml does not grant what the scheduler sent: "
              + denied.stream()
                  .map(r -> r.access() + " (" + r.method() + " " + r.path() + ")")
                  .distinct()
                  .toList());
    }
  }

  /** A pod fixture: requests, scheduler, group, priority, placement. */
  public final class TestPod {
    private final String namespace;
    private final String name;
    private final Map<String, Quantity> requests = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final Map<String, String> labels = new LinkedHashMap<>();
    private String priorityClass;
    private String scheduler = "volcano";
    private String node;
    private String phase = "Pending";
    private Integer priority;
    private boolean emulate = true;

    private TestPod(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }

    public TestPod requests(String cpu, String memory) {
      requests.put("cpu", new Quantity(cpu));
      requests.put("memory", new Quantity(memory));
      return this;
    }

    TestPod group(String podGroup) {
      annotations.put("scheduling.k8s.io/group-name", podGroup);
      return this;
    }

    TestPod annotation(String key, String value) {
      annotations.put(key, value);
      return this;
    }

    TestPod label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    TestPod priorityClass(String name) {
      this.priorityClass = name;
      return this;
    }

    TestPod scheduler(String name) {
      this.scheduler = name;
      return this;
    }

    TestPod priority(int priority) {
      this.priority = priority;
      return this;
    }

    /** Already bound to {@code node} and running there. */
    TestPod runningOn(String node) {
      this.node = node;
      this.phase = "Running";
      return this;
    }

    /** Do not emulate the binding subresource for this pod (the CRUD server answers 409). */
    TestPod withoutBindingEmulation() {
      this.emulate = false;
      return this;
    }

    public Pod create() {
      if (emulate) {
        emulateBinding(namespace, name);
        emulateEviction(namespace, name);
      }
      Pod pod =
          new PodBuilder()
              .withNewMetadata()
              .withNamespace(namespace)
              .withName(name)
              .withAnnotations(annotations)
              .withLabels(labels)
              .endMetadata()
              .withNewSpec()
              .withSchedulerName(scheduler)
              .withNodeName(node)
              .withPriority(priority)
              .withPriorityClassName(priorityClass)
              .addNewContainer()
              .withName("main")
              .withImage("busybox")
              .withNewResources()
              .withRequests(requests)
              .endResources()
              .endContainer()
              .endSpec()
              .withNewStatus()
              .withPhase(phase)
              .endStatus()
              .build();
      return kubectl.pods().inNamespace(namespace).resource(pod).create();
    }
  }
}
