package dev.caldera.load;

import dev.caldera.load.LoadObjects.PodShape;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A run's objects on the API server: creates them, remembers exactly which it created, and deletes
 * those and nothing else ({@link #cleanup}): its pods (with no grace period, since no kubelet will
 * ever confirm them gone), pod groups and events, its namespace, its nodes, and the queue if it
 * created it. Thread-safe; {@link #cleanup} may run from the shutdown hook while the run's thread
 * is still at work.
 */
final class LoadCluster {

  /** Where to find Volcano's CRDs, for the message when they are missing. */
  static final String CRDS_HINT =
      "install them with `kubectl apply -k runtime/deploy/crds` (in Caldera's source tree), or"
          + " load plain pods with --plain";

  private final KubernetesClient client;
  private final String runId;
  private final String namespace;
  private final Set<String> nodes = ConcurrentHashMap.newKeySet();
  private volatile boolean namespaceCreated;
  private volatile String queueCreated;
  private volatile boolean cleaning;
  private List<String> cleanupProblems;

  LoadCluster(KubernetesClient client, String runId) {
    this.client = client;
    this.runId = runId;
    this.namespace = "caldera-load-" + runId;
  }

  String runId() {
    return runId;
  }

  String namespace() {
    return namespace;
  }

  /** The names of the nodes this run created. */
  Set<String> createdNodes() {
    return Set.copyOf(nodes);
  }

  /** The queue this run created, or null. */
  String createdQueue() {
    return queueCreated;
  }

  /**
   * Fails, saying why, unless the API server answers and takes the kubeconfig's credentials: a
   * first request that tells those apart from the run's later failures.
   */
  void checkReachable() throws LoadException {
    String url = client.getMasterUrl().toString();
    try {
      client.namespaces().withName("default").get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 401) {
        throw new LoadException(
            "the API server "
                + url
                + " refused the kubeconfig's credentials: "
                + Errors.describe(e),
            e);
      }
      if (e.getCode() == 403) {
        throw new LoadException(
            "the kubeconfig's user may not read namespaces on "
                + url
                + " (the tool creates nodes, namespaces and queues: it needs a cluster"
                + " administrator): "
                + Errors.describe(e),
            e);
      }
      if (e.getCode() <= 0) {
        throw new LoadException(
            "cannot reach the API server " + url + ": " + Errors.unanswered(e), e);
      }
      throw new LoadException("the API server " + url + " answered " + Errors.describe(e), e);
    }
  }

  /** Fails unless the API server serves Volcano's queues and pod groups. */
  void checkVolcanoCrds() throws LoadException {
    APIResourceList served;
    try {
      served = client.getApiResources(LoadObjects.VOLCANO_GROUP_VERSION);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw new LoadException(
            "cannot ask the API server whether it serves "
                + LoadObjects.VOLCANO_GROUP_VERSION
                + ": "
                + Errors.describe(e),
            e);
      }
      served = null;
    }
    Set<String> names =
        served == null
            ? Set.of()
            : served.getResources().stream().map(APIResource::getName).collect(Collectors.toSet());
    List<String> missing =
        List.of("queues", "podgroups").stream().filter(r -> !names.contains(r)).toList();
    if (!missing.isEmpty()) {
      throw new LoadException(
          "gangs need Volcano's CRDs, and the API server does not serve "
              + String.join(" and ", missing)
              + " of "
              + LoadObjects.VOLCANO_GROUP_VERSION
              + ": "
              + CRDS_HINT);
    }
  }

  /**
   * Creates the run's namespace and its {@code default} service account: a bare API server has no
   * controller to create it, and without it pods are refused; where a controller manager runs, it
   * may create it first.
   */
  void createNamespace() throws LoadException {
    call(
        "create namespace " + namespace,
        () -> client.namespaces().resource(LoadObjects.namespace(namespace, runId)).create());
    namespaceCreated = true;
    try {
      client
          .serviceAccounts()
          .inNamespace(namespace)
          .resource(LoadObjects.defaultServiceAccount(namespace))
          .create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw new LoadException(
            "create the service account default in " + namespace + ": " + Errors.describe(e), e);
      }
    }
  }

  /** Creates {@code count} fake nodes on {@code workers} threads. */
  void createNodes(int count, int workers) throws LoadException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(workers, Math.max(1, count)));
    try {
      List<Future<?>> created = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String name = "caldera-load-" + runId + "-" + i;
        created.add(
            pool.submit(
                () -> {
                  if (cleaning) {
                    return null;
                  }
                  client.nodes().resource(LoadObjects.node(name, runId)).create();
                  nodes.add(name);
                  return null;
                }));
      }
      for (Future<?> f : created) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new LoadException("create the fake nodes: " + Errors.describe(e.getCause()), e);
        }
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /** How many nodes carry every label of {@code selector}. */
  int countNodes(Map<String, String> selector) throws LoadException {
    return call(
        "list the nodes labelled " + selector,
        () -> client.nodes().withLabels(selector).list().getItems().size());
  }

  /** Creates queue {@code name} unless it exists; only a queue created here is deleted later. */
  void ensureQueue(String name) throws LoadException {
    var queues = client.genericKubernetesResources(LoadObjects.QUEUES);
    if (call("read queue " + name, () -> queues.withName(name).get()) != null) {
      return;
    }
    try {
      queues.resource(LoadObjects.queue(name)).create();
      queueCreated = name;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) { // created by someone else meanwhile: theirs
        throw new LoadException("create queue " + name + ": " + Errors.describe(e), e);
      }
    }
  }

  void createPodGroup(String name, String queue, int minMember, PodShape shape) {
    client
        .genericKubernetesResources(LoadObjects.POD_GROUPS)
        .inNamespace(namespace)
        .resource(LoadObjects.podGroup(namespace, name, runId, queue, minMember, shape))
        .create();
  }

  void createPod(
      String name,
      String group,
      String schedulerName,
      Map<String, String> nodeSelector,
      PodShape shape) {
    client
        .pods()
        .inNamespace(namespace)
        .resource(
            LoadObjects.pod(namespace, name, runId, group, schedulerName, nodeSelector, shape))
        .create();
  }

  /**
   * Deletes what this run created, once (a second call waits for the first and returns its answer):
   * pods with grace period 0, pod groups, the namespace's events (an API server without a
   * controller manager never empties a deleted namespace), the namespace, the nodes, and the queue
   * it created.
   *
   * @return what could not be deleted, one line each; empty when all went
   */
  synchronized List<String> cleanup() {
    if (cleanupProblems != null) {
      return cleanupProblems;
    }
    cleaning = true;
    List<String> problems = new ArrayList<>();
    if (namespaceCreated) {
      deleteUntilGone(
          problems,
          "the pods of namespace " + namespace,
          () -> client.pods().inNamespace(namespace).withGracePeriod(0).delete(),
          () -> names(client.pods().inNamespace(namespace).list().getItems()),
          name -> client.pods().inNamespace(namespace).withName(name).withGracePeriod(0).delete());
      deleteUntilGone(
          problems,
          "the pod groups of namespace " + namespace,
          () -> podGroups().delete(),
          () -> names(podGroups().list().getItems()),
          name -> podGroups().withName(name).delete());
      // Events are deleted as a collection only: no scheduler reads them, and the API server
      // deletes what is left after its --event-ttl (1 hour by default). One by one, the 30,000
      // events of a long run took more than 3 minutes.
      delete(
          problems,
          "the events of namespace " + namespace,
          () -> client.v1().events().inNamespace(namespace).delete());
      delete(
          problems,
          "namespace " + namespace,
          () -> client.namespaces().withName(namespace).delete());
    }
    if (!nodes.isEmpty()) {
      delete(
          problems,
          "the nodes labelled " + LoadObjects.RUN_LABEL + "=" + runId,
          () -> client.nodes().withLabel(LoadObjects.RUN_LABEL, runId).delete());
      // A node whose create was still in flight when the first delete went out.
      delete(
          problems,
          "the nodes labelled " + LoadObjects.RUN_LABEL + "=" + runId + " (second pass)",
          () -> {
            if (!client
                .nodes()
                .withLabel(LoadObjects.RUN_LABEL, runId)
                .list()
                .getItems()
                .isEmpty()) {
              client.nodes().withLabel(LoadObjects.RUN_LABEL, runId).delete();
            }
            return null;
          });
    }
    String queue = queueCreated;
    if (queue != null) {
      delete(
          problems,
          "queue " + queue,
          () -> client.genericKubernetesResources(LoadObjects.QUEUES).withName(queue).delete());
    }
    cleanupProblems = List.copyOf(problems);
    return cleanupProblems;
  }

  /** How long {@link #cleanup} goes on deleting the objects of one kind that are still there. */
  static final Duration GONE_WITHIN = Duration.ofMinutes(3);

  /**
   * How many single deletes are in flight at once: a collection delete that timed out can leave
   * thousands of objects, and the API server serves single deletes side by side.
   */
  static final int DELETES_IN_FLIGHT = 16;

  private NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      podGroups() {
    return client.genericKubernetesResources(LoadObjects.POD_GROUPS).inNamespace(namespace);
  }

  private static List<String> names(List<? extends HasMetadata> objects) {
    List<String> names = new ArrayList<>(objects.size());
    for (HasMetadata o : objects) {
      names.add(o.getMetadata().getName());
    }
    return names;
  }

  /**
   * Deletes a collection of the namespace ({@code deleteCollection}), and again, one by one ({@link
   * #DELETES_IN_FLIGHT} at a time), the objects still listed after it, also when it failed: the API
   * server's delete of a large collection can end early (its request timeout, an error for the
   * client, after it deleted some; seen with 18,000 pods and 3,000 pod groups), and a pod deleted
   * earlier with a grace period waits for a kubelet that fake nodes do not have. Left behind, pods
   * and pod groups would be listed by every scheduler started later.
   */
  private void deleteUntilGone(
      List<String> problems,
      String what,
      Supplier<?> deleteCollection,
      Supplier<List<String>> list,
      Consumer<String> deleteOne) {
    List<String> collectionProblem = new ArrayList<>(1);
    delete(collectionProblem, what, deleteCollection);
    long deadline = System.nanoTime() + GONE_WITHIN.toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(DELETES_IN_FLIGHT);
    try {
      while (true) {
        List<String> left;
        try {
          left = list.get();
        } catch (RuntimeException e) {
          // The API server refused or is gone: said once, as the collection delete's error if any.
          problems.addAll(
              collectionProblem.isEmpty()
                  ? List.of("could not list " + what + ": " + Errors.describe(e))
                  : collectionProblem);
          return;
        }
        if (left.isEmpty()) {
          return;
        }
        if (System.nanoTime() > deadline) {
          problems.add(
              "could not delete "
                  + what
                  + ": "
                  + left.size()
                  + " still there after "
                  + GONE_WITHIN.toMinutes()
                  + " minutes");
          return;
        }
        List<Future<?>> deletes = new ArrayList<>(left.size());
        for (String name : left) {
          deletes.add(pool.submit(() -> deleteOne.accept(name)));
        }
        for (Future<?> d : deletes) {
          try {
            d.get();
          } catch (ExecutionException e) {
            // Listed again in the next round.
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("could not delete " + what + ": interrupted");
            return;
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void delete(List<String> problems, String what, Supplier<?> call) {
    try {
      call.get();
    } catch (RuntimeException e) {
      problems.add("could not delete " + what + ": " + Errors.describe(e));
    }
  }

  private static <T> T call(String what, Supplier<T> call) throws LoadException {
    try {
      return call.get();
    } catch (KubernetesClientException e) {
      throw new LoadException(what + ": " + Errors.describe(e), e);
    }
  }
}
