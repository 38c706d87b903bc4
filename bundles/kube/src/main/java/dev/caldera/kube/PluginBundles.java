package dev.caldera.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.kube.internal.ApiErrors;
import dev.caldera.kube.internal.ApiRequests;
import dev.caldera.kube.internal.Informers;
import dev.caldera.kube.internal.PluginBundleSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;

/**
 * Converges this replica's plugin bundles to the {@code PluginBundle} objects ({@code
 * caldera.dev/v1alpha1}) of one namespace: each object names a jar by URL or Maven coordinates and
 * its SHA-256; every replica fetches it, verifies the digest, and writes it into the deploy
 * directory the OSGi framework watches (where it is hot-swapped in like any plugin bundle). A jar
 * whose digest does not match is refused and never written. Deleting an object removes its jar, so
 * the bundle is uninstalled on every replica. Each replica reports its own outcome under {@code
 * status.replicas.<identity>} of the object and as an event.
 *
 * <p>Jars are written as {@code pluginbundle-<object name>.jar}; files of that prefix that no
 * object names are removed, so the directory holds exactly what the objects say (plus the shipped
 * plugins, which this never touches). Runs on every replica, leader or not, on one thread of its
 * own.
 */
public final class PluginBundles implements AutoCloseable {

  /** The API group, version and plural of the custom resource. */
  public static final String GROUP = "caldera.dev";

  public static final String VERSION = "v1alpha1";
  public static final String PLURAL = "pluginbundles";

  /** The prefix of the jar files this writes into the deploy directory. */
  public static final String FILE_PREFIX = "pluginbundle-";

  /** What the framework made of a jar written to the deploy directory. */
  @FunctionalInterface
  public interface Probe {
    /**
     * Empty while the framework has not (yet) taken {@code fileName} up as the bundle {@code
     * symbolicName} {@code version}; else whether it is active, and its state or problem.
     */
    Optional<Outcome> check(String fileName, String symbolicName, String version);
  }

  /** A bundle's state once the framework took it up. */
  public record Outcome(boolean active, String detail) {}

  /** Timings; tests shorten them. */
  public record Timings(Duration installTimeout, Duration retryPeriod) {
    public static Timings defaults() {
      return new Timings(Duration.ofSeconds(30), Duration.ofSeconds(30));
    }
  }

  /** The PluginBundle resource, for fabric8's generic client. */
  static final ResourceDefinitionContext PLUGIN_BUNDLES =
      new ResourceDefinitionContext.Builder()
          .withGroup(GROUP)
          .withVersion(VERSION)
          .withKind("PluginBundle")
          .withPlural(PLURAL)
          .withNamespaced(true)
          .build();

  /** A plugin jar larger than this is refused (and not read further). */
  static final long MAX_JAR_BYTES = 64L << 20;

  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final String namespace;
  private final String identity;
  private final String controller;
  private final Path deployDir;
  private final Probe probe;
  private final Timings timings;
  private final HttpClient http;
  private final ScheduledExecutorService worker;
  private final AtomicBoolean queued = new AtomicBoolean();
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile SharedIndexInformer<GenericKubernetesResource> informer;
  private volatile boolean closed;
  private volatile String lastListProblem = "";

  /** What this replica did last per object name. */
  private final Map<String, Applied> applied = new ConcurrentHashMap<>();

  /**
   * @param sha256 the digest of the spec this was for
   * @param generation the spec's generation
   * @param state Installed, Refused, Failed, Invalid or NotActive
   * @param retry whether the same spec is tried again (fetch errors, not-yet-active bundles)
   */
  private record Applied(
      String sha256, long generation, String state, String message, boolean retry) {}

  private PluginBundles(
      KubernetesClient client,
      String namespace,
      String identity,
      String controller,
      Path deployDir,
      Probe probe,
      Timings timings) {
    this.client = client;
    this.namespace = namespace;
    this.identity = identity;
    this.controller = controller;
    this.deployDir = deployDir;
    this.probe = probe;
    this.timings = timings;
    this.http =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "caldera-plugin-bundles");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts watching the {@code PluginBundle} objects of {@code namespace} on {@code cluster}'s
   * connection and writing their jars into {@code deployDir}. A missing CRD or a denied list is
   * reported (and retried), never fatal: the shipped plugins go on working.
   */
  public static PluginBundles start(
      KubeCluster cluster, String namespace, Path deployDir, Probe probe, Timings timings) {
    PluginBundles sync =
        new PluginBundles(
            cluster.client(),
            namespace,
            cluster.options().identity(),
            cluster.options().reportingController(),
            deployDir,
            probe,
            timings);
    sync.watch();
    return sync;
  }

  /** Starts watching the objects; the first full list triggers the first reconciliation. */
  private void watch() {
    SharedIndexInformer<GenericKubernetesResource> i =
        Informers.runnableInformer(
            client.genericKubernetesResources(PLUGIN_BUNDLES).inNamespace(namespace));
    i.exceptionHandler(
        (isStarted, t) -> {
          String problem = listProblem(namespace, t);
          // Said once per distinct problem: the informer retries with backoff for as long as it
          // lasts (a missing CRD), and the shipped plugins go on working meanwhile.
          if (!problem.equals(lastListProblem)) {
            lastListProblem = problem;
            log(problem);
          }
          return !closed;
        });
    i.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource obj) {
            schedule();
          }

          @Override
          public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
            schedule();
          }

          @Override
          public void onDelete(GenericKubernetesResource obj, boolean unknown) {
            schedule();
          }
        });
    informer = i;
    i.start()
        .whenComplete(
            (v, t) -> {
              if (t == null) {
                // The first list decides what stays: files no object names any more go.
                schedule();
              }
            });
    worker.scheduleWithFixedDelay(
        () -> {
          if (informer.hasSynced()) {
            schedule();
          }
        },
        timings.retryPeriod().toMillis(),
        timings.retryPeriod().toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** Queues one reconciliation (several changes in a row make one). */
  private void schedule() {
    if (!closed && queued.compareAndSet(false, true)) {
      worker.execute(
          () -> {
            running.set(true);
            queued.set(false);
            try {
              reconcile();
            } catch (RuntimeException e) {
              log("reconciliation failed: " + ApiErrors.describe(e));
            } finally {
              running.set(false);
            }
          });
    }
  }

  /** Makes the deploy directory hold exactly the jars the objects name, in name order. */
  void reconcile() {
    if (!informer.hasSynced()) {
      return; // before the first full list, a missing object may only not be listed yet
    }
    Map<String, GenericKubernetesResource> objects = new TreeMap<>();
    for (GenericKubernetesResource r : informer.getStore().list()) {
      objects.put(r.getMetadata().getName(), r);
    }
    for (GenericKubernetesResource r : objects.values()) {
      if (closed) {
        return;
      }
      reconcile(r);
    }
    for (String file : ownedFiles()) {
      String name = file.substring(FILE_PREFIX.length(), file.length() - ".jar".length());
      if (!objects.containsKey(name)) {
        try {
          Files.deleteIfExists(deployDir.resolve(file));
          log("PluginBundle " + name + " removed: uninstalled " + file);
        } catch (IOException e) {
          log("PluginBundle " + name + " removed, but " + file + " cannot be deleted: " + e);
        }
      }
    }
    applied.keySet().retainAll(objects.keySet());
  }

  private void reconcile(GenericKubernetesResource r) {
    String name = r.getMetadata().getName();
    long generation = r.getMetadata().getGeneration() == null ? 0 : r.getMetadata().getGeneration();
    PluginBundleSpec spec;
    try {
      spec = PluginBundleSpec.parse(name, generation, spec(r));
    } catch (PluginBundleSpec.Invalid e) {
      // report() writes the status and an event only when the state or the message changed.
      report(r, new Applied(null, generation, "Invalid", e.getMessage(), false), null, null);
      return;
    }
    Applied before = applied.get(name);
    if (before != null
        && spec.sha256().equals(before.sha256())
        && before.generation() == generation
        && !before.retry()) {
      return;
    }
    Path target = deployDir.resolve(FILE_PREFIX + name + ".jar");
    if (Files.isRegularFile(target) && spec.sha256().equals(sha256Of(target))) {
      // Written by an earlier run (or an earlier spec with the same digest): only its state.
      Optional<String[]> id = identity(readQuietly(target));
      if (id.isPresent()) {
        awaitAndReport(r, spec, target.getFileName().toString(), id.get());
        return;
      }
    }
    byte[] jar;
    try {
      jar = fetch(spec.uri());
    } catch (IOException e) {
      report(
          r,
          new Applied(
              spec.sha256(),
              generation,
              "Failed",
              "cannot fetch " + spec.uri() + ": " + e.getMessage() + " (retried)",
              true),
          null,
          null);
      return;
    }
    String actual = sha256(jar);
    if (!actual.equals(spec.sha256())) {
      report(
          r,
          new Applied(
              spec.sha256(),
              generation,
              "Refused",
              "checksum mismatch: "
                  + spec.uri()
                  + " has SHA-256 "
                  + actual
                  + ", spec.sha256 is "
                  + spec.sha256()
                  + "; not installed",
              false),
          null,
          null);
      return;
    }
    Optional<String[]> id = identity(jar);
    if (id.isEmpty()) {
      report(
          r,
          new Applied(
              spec.sha256(),
              generation,
              "Refused",
              spec.uri() + " is not an OSGi bundle (no Bundle-SymbolicName in its manifest)",
              false),
          null,
          null);
      return;
    }
    try {
      Path part = Files.createTempFile(deployDir, "." + FILE_PREFIX, ".part");
      Files.write(part, jar);
      Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      report(
          r,
          new Applied(
              spec.sha256(),
              generation,
              "Failed",
              "cannot write " + target + ": " + e.getMessage() + " (retried)",
              true),
          null,
          null);
      return;
    }
    awaitAndReport(r, spec, target.getFileName().toString(), id.get());
  }

  private void awaitAndReport(
      GenericKubernetesResource r, PluginBundleSpec spec, String file, String[] id) {
    long deadline = System.nanoTime() + timings.installTimeout().toNanos();
    Optional<Outcome> outcome = Optional.empty();
    while (!closed) {
      outcome = probe.check(file, id[0], id[1]);
      if (outcome.isPresent() && outcome.get().active() || System.nanoTime() > deadline) {
        break;
      }
      sleep(100);
    }
    boolean active = outcome.isPresent() && outcome.get().active();
    String message =
        id[0]
            + " "
            + id[1]
            + (active
                ? " installed from " + spec.uri()
                : outcome
                    .map(o -> " not active: " + o.detail())
                    .orElse(
                        " written to "
                            + file
                            + " but not installed within "
                            + timings.installTimeout().toSeconds()
                            + " s (GET /api/bundles on this replica names the reason)"));
    report(
        r,
        new Applied(
            spec.sha256(), spec.generation(), active ? "Installed" : "NotActive", message, !active),
        id[0],
        id[1]);
  }

  /** Records the outcome; writes the status and an event when the state or message changed. */
  private void report(GenericKubernetesResource r, Applied now, String bundle, String version) {
    String name = r.getMetadata().getName();
    Applied before = applied.put(name, now);
    boolean changed =
        before == null
            || !before.state().equals(now.state())
            || !before.message().equals(now.message())
            || before.generation() != now.generation();
    if (!changed) {
      return;
    }
    log("PluginBundle " + name + ": " + now.state() + ": " + now.message());
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("state", now.state());
    entry.put("message", now.message());
    entry.put("observedGeneration", now.generation());
    entry.put("sha256", now.sha256());
    entry.put("bundle", bundle);
    entry.put("version", version);
    entry.put(
        "lastTransitionTime",
        Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    // A merge patch of one key of the map: replicas never overwrite each other's entries.
    Map<String, Object> patch = Map.of("status", Map.of("replicas", Map.of(identity, entry)));
    String path =
        "/apis/"
            + GROUP
            + "/"
            + VERSION
            + "/namespaces/"
            + namespace
            + "/"
            + PLURAL
            + "/"
            + name
            + "/status";
    try {
      ApiRequests.mergePatch(client, path, JSON.writeValueAsString(patch));
    } catch (IOException | KubernetesClientException e) {
      log("PluginBundle " + name + ": cannot write the status: " + ApiErrors.describe(e));
    }
    boolean warning = !now.state().equals("Installed");
    String reason =
        switch (now.state()) {
          case "Installed" -> "BundleInstalled";
          case "Refused" ->
              now.message().startsWith("checksum mismatch") ? "ChecksumMismatch" : "NotABundle";
          case "Invalid" -> "InvalidSpec";
          case "Failed" -> "FetchFailed";
          default -> "BundleNotActive";
        };
    Instant t = Instant.now();
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(
                name + "." + Long.toHexString(t.getEpochSecond() * 1_000_000_000L + t.getNano()))
            .endMetadata()
            .withEventTime(new MicroTime(MICRO_TIME.format(t)))
            .withReportingController(controller)
            .withReportingInstance(identity)
            .withAction("Install")
            .withReason(reason)
            .withType(warning ? "Warning" : "Normal")
            .withNote(identity + ": " + truncate(now.message()))
            .withRegarding(
                new ObjectReferenceBuilder()
                    .withApiVersion(GROUP + "/" + VERSION)
                    .withKind("PluginBundle")
                    .withNamespace(namespace)
                    .withName(name)
                    .withUid(r.getMetadata().getUid())
                    .withResourceVersion(r.getMetadata().getResourceVersion())
                    .build())
            .build();
    try {
      ApiRequests.post(
          client,
          "/apis/events.k8s.io/v1/namespaces/" + namespace + "/events",
          client.getKubernetesSerialization().asJson(event));
    } catch (KubernetesClientException e) {
      log("PluginBundle " + name + ": cannot write the event: " + ApiErrors.describe(e));
    }
  }

  private static String truncate(String s) {
    return s.length() > 1000 ? s.substring(0, 1000) : s;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource r) {
    Object spec = r.getAdditionalProperties().get("spec");
    return spec instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
  }

  private byte[] fetch(URI uri) throws IOException {
    HttpResponse<InputStream> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
              HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    try (InputStream in = response.body()) {
      if (response.statusCode() != 200) {
        throw new IOException("HTTP " + response.statusCode());
      }
      byte[] jar = in.readNBytes((int) MAX_JAR_BYTES + 1);
      if (jar.length > MAX_JAR_BYTES) {
        throw new IOException("larger than " + (MAX_JAR_BYTES >> 20) + " MiB");
      }
      return jar;
    }
  }

  /** The bundle's symbolic name (without directives) and version, if it is a bundle. */
  static Optional<String[]> identity(byte[] jar) {
    if (jar == null) {
      return Optional.empty();
    }
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      Manifest m = in.getManifest();
      if (m == null) {
        return Optional.empty();
      }
      Attributes a = m.getMainAttributes();
      String bsn = a.getValue("Bundle-SymbolicName");
      if (bsn == null || bsn.isBlank()) {
        return Optional.empty();
      }
      String version = a.getValue("Bundle-Version");
      return Optional.of(
          new String[] {bsn.split(";", 2)[0].trim(), version == null ? "0.0.0" : version.trim()});
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sha256Of(Path file) {
    byte[] b = readQuietly(file);
    return b == null ? "" : sha256(b);
  }

  private static byte[] readQuietly(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      return null;
    }
  }

  private List<String> ownedFiles() {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(deployDir, FILE_PREFIX + "*.jar")) {
      for (Path p : files) {
        out.add(p.getFileName().toString());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** This replica's state per object name (Installed, Refused, Failed, Invalid, NotActive). */
  public Map<String, String> states() {
    Map<String, String> out = new TreeMap<>();
    applied.forEach((k, v) -> out.put(k, v.state()));
    return out;
  }

  /** Waits until the informer has listed and no reconciliation is queued or running. */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      SharedIndexInformer<GenericKubernetesResource> i = informer;
      if (i != null && i.hasSynced() && !queued.get() && !running.get()) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  /** Why the PluginBundles cannot be listed, with what usually causes that answer. */
  static String listProblem(String namespace, Throwable t) {
    String hint =
        switch (ApiErrors.code(t)) {
          case 404 -> " Is the CRD pluginbundles.caldera.dev installed?";
          case 403 ->
              " The scheduler reads PluginBundles in its own namespace ($POD_NAMESPACE, else the"
                  + " kubeconfig context's); the shipped Role grants them in caldera-system.";
          default -> "";
        };
    return "cannot list or watch PluginBundles in "
        + namespace
        + " ("
        + ApiErrors.describe(t)
        + "); retrying."
        + hint;
  }

  private static void log(String line) {
    System.out.println("plugin bundles: " + line);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    if (i != null) {
      i.close();
    }
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
