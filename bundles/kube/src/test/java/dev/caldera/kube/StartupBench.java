package dev.caldera.kube;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Start to first bind and to all bound, for a backlog of pending gangs that exists before the
 * scheduler starts (issue 12's setup: 50 empty nodes, 100 gangs of 10 one-CPU pods). A measuring
 * program, not a test: run it from {@code bundles/kube} with the test class path,
 *
 * <pre>
 * mvn -q -pl bundles/kube exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.caldera.kube.StartupBench -Dexec.args="--mock"
 * mvn -q -pl bundles/kube exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.caldera.kube.StartupBench \
 *     -Dexec.args="--kubeconfig FILE --launch 'runtime/target/caldera/bin/caldera run
 *         --kubeconfig FILE --no-workload --admin-address off'"
 * </pre>
 *
 * With {@code --mock} the workload goes to the fabric8 mock API server and the scheduler runs in
 * this process ({@link KubeCluster} and {@link KubeRunner}, the bench conf); the clock starts when
 * the cluster connects. With {@code --kubeconfig} the workload goes to that API server (namespace
 * {@code caldera-bench-<random>}, nodes labelled {@code caldera-bench}, all removed at the end) and
 * {@code --launch} starts the scheduler as a process of its own, {@code --settle SECONDS} (default
 * 3) after the last pod was created, so that neither the API server nor this program is still busy
 * with the creation when it starts: the clock starts with the process. Either way the pods are
 * watched, and the times at which they were seen bound are reported.
 */
public final class StartupBench {

  // A namespace of its own per run: without a controller manager a deleted one never goes away.
  private static final String NS =
      "caldera-bench-" + java.util.UUID.randomUUID().toString().substring(0, 6);
  private static final String CONF =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}, {name: binpack}]
      """;

  private StartupBench() {}

  public static void main(String[] args) throws Exception {
    int nodes = 50;
    int gangs = 100;
    int gangSize = 10;
    boolean mock = false;
    String kubeconfig = null;
    String launch = null;
    Duration settle = Duration.ofSeconds(3);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--mock" -> mock = true;
        case "--kubeconfig" -> kubeconfig = args[++i];
        case "--launch" -> launch = args[++i];
        case "--settle" ->
            settle = Duration.ofMillis((long) (Double.parseDouble(args[++i]) * 1000));
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--gangs" -> gangs = Integer.parseInt(args[++i]);
        case "--gang-size" -> gangSize = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (mock == (kubeconfig != null)) {
      throw new IllegalArgumentException("give --mock or --kubeconfig FILE (with --launch CMD)");
    }
    if (mock) {
      onMock(nodes, gangs, gangSize);
    } else {
      onServer(Path.of(kubeconfig), launch, settle, nodes, gangs, gangSize);
    }
  }

  private static void onMock(int nodes, int gangs, int gangSize) throws Exception {
    try (MockApi api = new MockApi()) {
      api.emulateSubresourcesOfEveryPod();
      Workload w = new Workload(api.kubectl, nodes, gangs, gangSize, false);
      w.create();
      Watch watch = new Watch(api.kubectl, w.pods());
      SchedulerConf conf = SchedulerConf.parse(CONF, "bench conf");
      long start = System.nanoTime();
      try (KubeCluster cluster = api.cluster("bench");
          KubeRunner runner =
              new KubeRunner(
                  cluster,
                  new Scheduler(new ServiceLoaderPluginRegistry()),
                  () -> conf,
                  Duration.ofSeconds(1),
                  () -> true)) {
        cluster.awaitSync(Duration.ofSeconds(60));
        long synced = System.nanoTime();
        runner.start();
        watch.awaitAllBound(Duration.ofMinutes(5));
        watch.report("mock API server, scheduler in process", start, synced);
      } finally {
        watch.close();
      }
    }
  }

  private static void onServer(
      Path kubeconfig, String launch, Duration settle, int nodes, int gangs, int gangSize)
      throws Exception {
    if (launch == null) {
      throw new IllegalArgumentException("--kubeconfig needs --launch 'the scheduler command'");
    }
    KubernetesClient kubectl =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(null, kubeconfig.toFile()))
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build();
    Workload w = new Workload(kubectl, nodes, gangs, gangSize, true);
    Process scheduler = null;
    Watch watch = null;
    try {
      w.create();
      watch = new Watch(kubectl, w.pods());
      Thread.sleep(settle.toMillis());
      File log = File.createTempFile("startup-bench-scheduler", ".log");
      System.out.println("scheduler output: " + log);
      long start = System.nanoTime();
      scheduler =
          new ProcessBuilder("sh", "-c", "exec " + launch)
              .redirectOutput(log)
              .redirectErrorStream(true)
              .start();
      watch.awaitAllBound(Duration.ofMinutes(5));
      watch.report("API server " + kubectl.getMasterUrl() + ", scheduler: " + launch, start, -1);
      scheduler
          .info()
          .totalCpuDuration()
          .ifPresent(
              cpu ->
                  System.out.printf(
                      Locale.ROOT,
                      "scheduler CPU until all bound: %.2f s%n",
                      cpu.toMillis() / 1000.0));
    } finally {
      if (scheduler != null) {
        scheduler.descendants().forEach(ProcessHandle::destroy);
        scheduler.destroy();
        scheduler.waitFor(30, TimeUnit.SECONDS);
      }
      if (watch != null) {
        watch.close();
      }
      w.delete();
      kubectl.close();
    }
  }

  /** Empty nodes, a queue, and gangs of pending pods (pod groups with minMember = gang size). */
  private record Workload(
      KubernetesClient kubectl, int nodes, int gangs, int gangSize, boolean realServer) {

    List<String> pods() {
      List<String> out = new ArrayList<>();
      for (int g = 0; g < gangs; g++) {
        for (int t = 0; t < gangSize; t++) {
          out.add("gang-" + g + "-" + t);
        }
      }
      return out;
    }

    void create() throws Exception {
      if (realServer) {
        RealServerObjects.namespace(kubectl, NS);
      } else {
        kubectl
            .namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
            .create();
      }
      for (int n = 0; n < nodes; n++) {
        RealServerObjects.node(kubectl, "bench-node-" + n, "caldera-bench", "true", "32", "128Gi");
      }
      var queues = kubectl.genericKubernetesResources(MockApi.QUEUES);
      if (queues.withName("default").get() == null) {
        queues
            .resource(
                new GenericKubernetesResourceBuilder()
                    .withApiVersion("scheduling.volcano.sh/v1beta1")
                    .withKind("Queue")
                    .withNewMetadata()
                    .withName("default")
                    .endMetadata()
                    .addToAdditionalProperties("spec", Map.of("weight", 1, "reclaimable", true))
                    .build())
            .create();
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> created = new ArrayList<>();
      for (int g = 0; g < gangs; g++) {
        String group = "gang-" + g;
        created.add(
            pool.submit(
                () -> {
                  kubectl
                      .genericKubernetesResources(MockApi.POD_GROUPS)
                      .inNamespace(NS)
                      .resource(RealServerObjects.podGroup(NS, group, "default", gangSize))
                      .create();
                  for (int t = 0; t < gangSize; t++) {
                    kubectl
                        .pods()
                        .inNamespace(NS)
                        .resource(
                            RealServerObjects.pendingPod(
                                NS, group + "-" + t, group, "volcano", "caldera-bench", "true"))
                        .create();
                  }
                  return null;
                }));
      }
      for (Future<?> f : created) {
        f.get();
      }
      pool.shutdown();
    }

    void delete() {
      kubectl.pods().inNamespace(NS).withGracePeriod(0).delete();
      kubectl.genericKubernetesResources(MockApi.POD_GROUPS).inNamespace(NS).delete();
      // Without a controller manager nothing empties a deleted namespace: the 1,000 and more
      // events of each run would pile up in etcd over a sitting (30,000 after about 30 runs).
      kubectl.v1().events().inNamespace(NS).delete();
      kubectl.namespaces().withName(NS).delete();
      kubectl.nodes().withLabel("caldera-bench", "true").delete();
    }
  }

  /** When each pod was first seen bound. */
  private static final class Watch implements AutoCloseable {
    private final SharedIndexInformer<Pod> informer;
    private final Map<String, Long> boundAt = new ConcurrentHashMap<>();
    private final int expected;

    Watch(KubernetesClient kubectl, List<String> pods) {
      this.expected = pods.size();
      informer =
          kubectl
              .pods()
              .inNamespace(NS)
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod p) {
                      seen(p);
                    }

                    @Override
                    public void onUpdate(Pod old, Pod p) {
                      seen(p);
                    }

                    @Override
                    public void onDelete(Pod p, boolean unknown) {}
                  });
    }

    private void seen(Pod p) {
      String node = p.getSpec().getNodeName();
      if (node != null && !node.isEmpty()) {
        boundAt.putIfAbsent(p.getMetadata().getName(), System.nanoTime());
      }
    }

    void awaitAllBound(Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (boundAt.size() < expected && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }

    void report(String where, long start, long synced) {
      List<Long> times = boundAt.values().stream().sorted().toList();
      System.out.println("startup bench: " + where);
      System.out.printf(Locale.ROOT, "pods bound: %d of %d%n", times.size(), expected);
      if (synced > 0) {
        System.out.printf(
            Locale.ROOT, "informers synced: %.2f s after start%n", seconds(synced - start));
      }
      if (times.isEmpty()) {
        return;
      }
      long first = times.get(0);
      long last = times.get(times.size() - 1);
      System.out.printf(Locale.ROOT, "first bind: %.2f s after start%n", seconds(first - start));
      System.out.printf(Locale.ROOT, "all bound: %.2f s after start%n", seconds(last - start));
      System.out.printf(
          Locale.ROOT,
          "binds/s from first to last: %.0f%n",
          times.size() > 1 ? (times.size() - 1) / seconds(last - first) : 0.0);
      // Where the time went: pods seen bound per half second after the first bind.
      StringBuilder timeline = new StringBuilder("bound per 0.5 s from the first bind:");
      int i = 0;
      for (long slot = first; i < times.size(); slot += 500_000_000L) {
        int n = 0;
        while (i < times.size() && times.get(i) < slot + 500_000_000L) {
          n++;
          i++;
        }
        timeline.append(' ').append(n);
      }
      System.out.println(timeline);
    }

    private static double seconds(long nanos) {
      return nanos / 1e9;
    }

    @Override
    public void close() {
      informer.close();
    }
  }
}
