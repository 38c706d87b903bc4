package dev.caldera.kube.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Builds the fabric8 client with the JDK HTTP client, from a kubeconfig or the environment. */
public final class Clients {

  /**
   * fabric8 warns once per process that Volcano's {@code v1beta1} is an "unstable version"; it is
   * the only version Volcano serves. Held here because java.util.logging keeps loggers weakly.
   */
  private static final Logger VERSION_USAGE =
      Logger.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");

  /**
   * fabric8's leader elector logs every failed lease attempt with a stack trace, every retry
   * period; {@code LeaseElector} reports each failure once, in one line with the HTTP status, and
   * the replica's readiness and metrics say it (issue 12).
   */
  private static final Logger LEADER_ELECTOR =
      Logger.getLogger("io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector");

  /**
   * fabric8's informers log every failed list or watch with a stack trace; {@code Informers}
   * reports each in one line with the HTTP status and counts it in the watch errors.
   */
  private static final Logger REFLECTOR =
      Logger.getLogger("io.fabric8.kubernetes.client.informers.impl.cache.Reflector");

  static {
    VERSION_USAGE.setLevel(Level.SEVERE);
    LEADER_ELECTOR.setLevel(Level.SEVERE);
    REFLECTOR.setLevel(Level.SEVERE);
  }

  /**
   * fabric8's serialization without its class path search. By default it loads and instantiates
   * every Kubernetes kind it ships (about 1,200 classes, a quarter of a second before the first
   * request on a cold JVM) to map a watch event's {@code kind} to a class; {@code Informers}
   * registers the few kinds it watches instead. A kind not registered reads as a {@code
   * GenericKubernetesResource}.
   */
  public static KubernetesSerialization serialization() {
    KubernetesSerialization serialization = new KubernetesSerialization(mapper(), false);
    // A watch's ERROR event carries a Status (410 Gone: list again); read as a generic resource
    // it would not be recognised.
    serialization.registerKubernetesResource(Status.class);
    return serialization;
  }

  /**
   * The object mapper under {@link #serialization()}: a watch event's object is read by {@link
   * WatchObjects}, without fabric8's JSON tree.
   */
  static ObjectMapper mapper() {
    ObjectMapper mapper = new ObjectMapper();
    mapper.addMixIn(WatchEvent.class, WatchObjects.WatchEventMixIn.class);
    return mapper;
  }

  /**
   * What {@code Config.fromKubeconfig(context, file)} does, with {@code serialization} reading the
   * file. fabric8 reads it with its static serialization, which loads and instantiates every kind
   * it ships first (about 600 classes and a second object mapper, a third of a second on the path
   * to the first request). The file is named on every context, cluster and user as fabric8 names
   * it: relative certificate paths are read from the kubeconfig's directory, and a refreshed token
   * is written back to the file it came from.
   */
  static Config fromKubeconfig(
      Path kubeconfig, String context, KubernetesSerialization serialization) throws IOException {
    io.fabric8.kubernetes.api.model.Config parsed;
    try (InputStream in = Files.newInputStream(kubeconfig)) {
      parsed = serialization.unmarshal(in, io.fabric8.kubernetes.api.model.Config.class);
    } catch (RuntimeException e) {
      throw new IOException("cannot read the kubeconfig " + kubeconfig + ": " + e.getMessage(), e);
    }
    if (parsed == null) {
      throw new IOException("the kubeconfig " + kubeconfig + " is empty");
    }
    File file = kubeconfig.toFile();
    Meta.list(parsed.getContexts())
        .forEach(c -> c.getAdditionalProperties().put(CONTEXT_FILE_KEY, file));
    Meta.list(parsed.getClusters())
        .forEach(c -> c.getAdditionalProperties().put(CLUSTER_FILE_KEY, file));
    Meta.list(parsed.getUsers())
        .forEach(u -> u.getAdditionalProperties().put(AUTH_INFO_FILE_KEY, file));
    Config config = Config.empty();
    KubeConfigUtils.merge(config, context, parsed);
    return config;
  }

  // The keys under which fabric8's KubeConfigUtils (7.8) looks for the file each part came from.
  private static final String CONTEXT_FILE_KEY = "KUBERNETES_CONFIG_CONTEXT_FILE_KEY";
  private static final String CLUSTER_FILE_KEY = "KUBERNETES_CONFIG_CLUSTER_FILE_KEY";
  private static final String AUTH_INFO_FILE_KEY = "KUBERNETES_CONFIG_AUTH_INFO_FILE_KEY";

  /** How long closing a client waits for its task threads to end. */
  static final Duration TASKS_CLOSE_WAIT = Duration.ofSeconds(5);

  /**
   * The client's task threads (informer lists, watch events, handlers), ended before {@code
   * close()} returns. fabric8's own pool is only told to stop: a task still running after the kube
   * bundle has stopped fails on the next class it loads, whose bundle loader is gone (a {@code
   * NoClassDefFoundError} with a stack trace per thread, seen when a run was stopped while its
   * informers were still listing).
   */
  static final class TaskThreads implements KubernetesClientBuilder.ExecutorSupplier {
    private static final AtomicInteger THREADS = new AtomicInteger();

    @Override
    public Executor get() {
      return Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "caldera-kube-client-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
    }

    @Override
    public void onClose(Executor executor) {
      if (executor instanceof ExecutorService tasks) {
        tasks.shutdownNow();
        try {
          tasks.awaitTermination(TASKS_CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** The User-Agent of every request Caldera sends. */
  public static final String USER_AGENT = "caldera-scheduler";

  private Clients() {}

  /**
   * A client for {@code kubeconfig} (its current context, or {@code context}); with a null file,
   * fabric8's auto-configuration: the in-cluster service account when running in a pod, else {@code
   * $KUBECONFIG} or {@code ~/.kube/config}. Requests are limited to {@code qps} per second with
   * bursts of {@code burst} (client-go's {@code --kube-api-qps} and {@code --kube-api-burst}). With
   * {@code httpWatches} watches are streamed HTTP requests on the one HTTP/2 connection every other
   * request uses, not a WebSocket (an HTTP/1.1 connection) each.
   *
   * @throws IOException if the kubeconfig cannot be read
   */
  public static KubernetesClient create(
      Path kubeconfig, String context, double qps, int burst, boolean httpWatches)
      throws IOException {
    return create(kubeconfig, context, qps, burst, httpWatches, new ApiTrouble());
  }

  /** As {@link #create(Path, String, double, int, boolean)}, telling {@code trouble} of 5xx. */
  public static KubernetesClient create(
      Path kubeconfig,
      String context,
      double qps,
      int burst,
      boolean httpWatches,
      ApiTrouble trouble)
      throws IOException {
    if (kubeconfig != null && !Files.isReadable(kubeconfig)) {
      throw new IOException("cannot read the kubeconfig " + kubeconfig);
    }
    KubernetesSerialization serialization = serialization();
    Config config =
        kubeconfig == null
            ? Config.autoConfigure(context)
            : fromKubeconfig(kubeconfig, context, serialization);
    // Retries live in one place, the writer's queue (counted, with backoff); fabric8 would
    // otherwise repeat every failed request up to ten times on its own first.
    config.setRequestRetryBackoffLimit(0);
    // Names the scheduler in the API server's audit log and in RBAC denials.
    config.setUserAgent(USER_AGENT);
    config.setOnlyHttpWatches(httpWatches);
    Thread current = Thread.currentThread();
    ClassLoader previous = current.getContextClassLoader();
    // Inside OSGi fabric8 looks up its implementation through the context class loader; the
    // embedded copy is only visible to this bundle's loader (stack-notes P11).
    current.setContextClassLoader(Clients.class.getClassLoader());
    try {
      return new KubernetesClientBuilder()
          .withConfig(config)
          .withKubernetesSerialization(serialization)
          .withHttpClientFactory(trouble.on(RateLimit.factory(qps, burst)))
          .withTaskExecutorSupplier(new TaskThreads())
          .build();
    } finally {
      current.setContextClassLoader(previous);
    }
  }
}
