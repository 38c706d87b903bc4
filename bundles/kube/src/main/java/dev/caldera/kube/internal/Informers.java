package dev.caldera.kube.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.dsl.Listable;
import io.fabric8.kubernetes.client.dsl.internal.BaseOperation;
import io.fabric8.kubernetes.client.dsl.internal.ByteLineWatchManager;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The shared informers that feed the {@link ClusterCache}: Nodes, Pods, PriorityClasses,
 * PodDisruptionBudgets, ResourceQuotas, Namespaces, PersistentVolumes, PersistentVolumeClaims,
 * StorageClasses, CSINodes, and Volcano's Queues and PodGroups.
 *
 * <p>Every list or watch failure is retried (fabric8's default gives up on a failed watch or a
 * failed first list); meanwhile the cache keeps the last state it saw, and {@link #behind} tells
 * when, after a reconnect, it holds what the server holds again.
 */
public final class Informers implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Informers.class.getName());

  private final KubernetesClient client;
  private final ClusterCache cache;
  private final Counters counters;
  private final Map<String, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
  private final List<CompletableFuture<Void>> started = new ArrayList<>();
  private final Map<String, Supplier<? extends KubernetesResourceList<?>>> listers =
      new LinkedHashMap<>();
  private SharedIndexInformer<io.fabric8.kubernetes.api.model.Pod> pods;
  private SharedIndexInformer<GenericKubernetesResource> podGroups;
  private SharedIndexInformer<GenericKubernetesResource> queues;
  private SharedIndexInformer<io.fabric8.kubernetes.api.model.PersistentVolumeClaim> claims;

  private volatile Runnable onWatchError = () -> {};

  public Informers(KubernetesClient client, ClusterCache cache, Counters counters) {
    this.client = client;
    this.cache = cache;
    this.counters = counters;
  }

  /** Creates and starts every informer; returns at once (see {@link #awaitSync}). */
  public synchronized void start() {
    if (!informers.isEmpty()) {
      throw new IllegalStateException("informers already started");
    }
    WatchRetryLog.started(counters);
    inform(
        "nodes",
        Node.class,
        client.nodes(),
        n -> cache.putNode(ObjectConverter.node(n)),
        n -> cache.removeNode(n.getMetadata().getName()));
    pods =
        inform(
            "pods",
            io.fabric8.kubernetes.api.model.Pod.class,
            client.pods().inAnyNamespace(),
            p -> cache.putPod(PodConverter.pod(p)),
            p -> cache.removePod(Cache.metaNamespaceKeyFunc(p)));
    inform(
        "priorityclasses",
        PriorityClass.class,
        client.scheduling().v1().priorityClasses(),
        pc -> cache.putPriorityClass(ObjectConverter.priorityClass(pc), pc.getPreemptionPolicy()),
        pc -> cache.removePriorityClass(pc.getMetadata().getName()));
    inform(
        "poddisruptionbudgets",
        PodDisruptionBudget.class,
        client.policy().v1().podDisruptionBudget().inAnyNamespace(),
        b -> cache.putPdb(ObjectConverter.pdb(b)),
        b -> cache.removePdb(Cache.metaNamespaceKeyFunc(b)));
    inform(
        "resourcequotas",
        ResourceQuota.class,
        client.resourceQuotas().inAnyNamespace(),
        q -> cache.putQuota(ObjectConverter.resourceQuota(q)),
        q -> cache.removeQuota(Cache.metaNamespaceKeyFunc(q)));
    inform(
        "namespaces",
        Namespace.class,
        client.namespaces(),
        ns -> cache.putNamespace(ObjectConverter.namespace(ns)),
        ns -> cache.removeNamespace(ns.getMetadata().getName()));
    inform(
        "persistentvolumes",
        PersistentVolume.class,
        client.persistentVolumes(),
        v -> cache.putVolume(StorageConverter.volume(v)),
        v -> cache.removeVolume(v.getMetadata().getName()));
    claims =
        inform(
            "persistentvolumeclaims",
            io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class,
            client.persistentVolumeClaims().inAnyNamespace(),
            c -> cache.putClaim(StorageConverter.claim(c)),
            c -> cache.removeClaim(Cache.metaNamespaceKeyFunc(c)));
    inform(
        "storageclasses",
        StorageClass.class,
        client.storage().v1().storageClasses(),
        sc -> cache.putStorageClass(StorageConverter.storageClass(sc)),
        sc -> cache.removeStorageClass(sc.getMetadata().getName()));
    inform(
        "csinodes",
        CSINode.class,
        client.storage().v1().csiNodes(),
        n -> cache.putCsiNode(StorageConverter.csiNode(n)),
        n -> cache.removeCsiNode(n.getMetadata().getName()));
    queues =
        inform(
            "queues",
            GenericKubernetesResource.class,
            client.genericKubernetesResources(VolcanoConverter.QUEUES),
            q ->
                cache.putQueue(
                    VolcanoConverter.queue(q),
                    VolcanoConverter.hasState(q),
                    q.getMetadata().getResourceVersion()),
            q -> cache.removeQueue(q.getMetadata().getName()));
    podGroups =
        inform(
            "podgroups",
            GenericKubernetesResource.class,
            client.genericKubernetesResources(VolcanoConverter.POD_GROUPS).inAnyNamespace(),
            pg -> cache.putPodGroup(VolcanoConverter.podGroup(pg), VolcanoConverter.counts(pg)),
            pg -> cache.removePodGroup(Cache.metaNamespaceKeyFunc(pg)));
  }

  /**
   * Builds the client's JSON readers for pods and nodes, the largest kinds of the first lists. A
   * reader for a kind is made on its first use, by reflection over every class it holds (about 150
   * for a pod); made while the connection is being opened, it is ready when the pods arrive.
   */
  public void prepareReaders() {
    try {
      client.getKubernetesSerialization().unmarshal("{}", PodList.class);
      client.getKubernetesSerialization().unmarshal("{}", NodeList.class);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "cannot prepare the list readers: {0}", e.toString());
    }
  }

  /** What to call when a list or watch fails (the cache may fall behind the server). */
  public void onWatchError(Runnable listener) {
    this.onWatchError = listener;
  }

  /** Whether every informer has listed once. */
  public synchronized boolean synced() {
    return !informers.isEmpty() && informers.values().stream().allMatch(i -> i.hasSynced());
  }

  /** Names of the informers that have not listed yet (e.g. {@code queues} without the CRD). */
  public synchronized List<String> unsynced() {
    List<String> out = new ArrayList<>();
    informers.forEach(
        (name, i) -> {
          if (!i.hasSynced()) {
            out.add(name);
          }
        });
    return out;
  }

  /**
   * The informers that hold less than the API server holds now: the resourceVersion of a quorum
   * read (a list without a resourceVersion is served from etcd) is the mark. An informer whose
   * watch has delivered an event at or past it has caught up; one that has not (a quiet kind sees
   * no events) is compared with a fresh quorum list of its kind: behind when the list holds an
   * object it lacks or has in an older version, or it holds one the list no longer has from before
   * the list. After an outage the watches resume from their last resourceVersion, and until they
   * have replayed what happened meanwhile the cache shows pods pending that the server has bound.
   *
   * @throws CatchUpFailed when a kind cannot be listed
   * @throws RuntimeException when the API server cannot be read at all
   */
  public List<String> behind() {
    String mark =
        client
            .namespaces()
            .list(new ListOptionsBuilder().withLimit(1L).build())
            .getMetadata()
            .getResourceVersion();
    Map<String, SharedIndexInformer<?>> now;
    synchronized (this) {
      now = new LinkedHashMap<>(informers);
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, SharedIndexInformer<?>> e : now.entrySet()) {
      SharedIndexInformer<?> informer = e.getValue();
      if (atOrPast(informer.lastSyncResourceVersion(), mark)) {
        continue;
      }
      KubernetesResourceList<?> fresh;
      try {
        fresh = listers.get(e.getKey()).get();
      } catch (RuntimeException x) {
        throw new CatchUpFailed(e.getKey(), x);
      }
      if (!holds(informer, fresh)) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** A list {@link #behind} needed failed; names the kind. */
  public static final class CatchUpFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CatchUpFailed(String kind, RuntimeException cause) {
      super("cannot list " + kind + ": " + ApiErrors.describe(cause), cause);
    }
  }

  private static boolean holds(SharedIndexInformer<?> informer, KubernetesResourceList<?> fresh) {
    String listed = fresh.getMetadata() == null ? null : fresh.getMetadata().getResourceVersion();
    if (listed != null && atOrPast(informer.lastSyncResourceVersion(), listed)) {
      return true;
    }
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (HasMetadata item : fresh.getItems()) {
      String key = Cache.metaNamespaceKeyFunc(item);
      keys.add(key);
      HasMetadata held = (HasMetadata) informer.getStore().getByKey(key);
      if (held == null
          || !atOrPast(
              held.getMetadata().getResourceVersion(), item.getMetadata().getResourceVersion())) {
        return false;
      }
    }
    for (Object o : informer.getStore().list()) {
      HasMetadata held = (HasMetadata) o;
      if (!keys.contains(Cache.metaNamespaceKeyFunc(held))
          && (listed == null || !newer(held.getMetadata().getResourceVersion(), listed))) {
        return false; // deleted before the list, and the informer has not seen it
      }
    }
    return true;
  }

  /**
   * Whether resourceVersion {@code rv} is {@code mark} or later. Kubernetes calls them opaque; the
   * API server's are etcd revisions (integers), and only those are ordered here: any other pair
   * counts as later only when equal.
   */
  static boolean atOrPast(String rv, String mark) {
    if (rv == null || mark == null) {
      return false;
    }
    try {
      return Long.parseLong(rv) >= Long.parseLong(mark);
    } catch (NumberFormatException e) {
      return rv.equals(mark);
    }
  }

  private static boolean newer(String rv, String mark) {
    return atOrPast(rv, mark) && !rv.equals(mark);
  }

  /** Waits until every informer has listed once; false on timeout. */
  public boolean awaitSync(long timeout, TimeUnit unit) throws InterruptedException {
    CompletableFuture<Void> all;
    synchronized (this) {
      all = CompletableFuture.allOf(started.toArray(CompletableFuture[]::new));
    }
    try {
      all.get(timeout, unit);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return false;
    }
  }

  /** Puts the server's last known state of a pod back into the cache (after a failed write). */
  void resyncPod(String key) {
    io.fabric8.kubernetes.api.model.Pod p = pods == null ? null : pods.getStore().getByKey(key);
    if (p == null) {
      cache.removePod(key);
    } else {
      cache.putPod(PodConverter.pod(p));
    }
  }

  /** Puts the server's last known state of a pod group back into the cache. */
  void resyncPodGroup(String key) {
    GenericKubernetesResource pg = podGroups == null ? null : podGroups.getStore().getByKey(key);
    if (pg == null) {
      cache.removePodGroup(key);
    } else {
      cache.putPodGroup(VolcanoConverter.podGroup(pg), VolcanoConverter.counts(pg));
    }
  }

  /** Puts the server's last known state of a queue back into the cache. */
  void resyncQueue(String name) {
    GenericKubernetesResource q = queues == null ? null : queues.getStore().getByKey(name);
    if (q == null) {
      cache.removeQueue(name);
    } else {
      cache.putQueue(
          VolcanoConverter.queue(q),
          VolcanoConverter.hasState(q),
          q.getMetadata().getResourceVersion());
    }
  }

  /** Puts the server's last known state of a claim back into the cache (after a failed write). */
  void resyncClaim(String key) {
    io.fabric8.kubernetes.api.model.PersistentVolumeClaim c =
        claims == null ? null : claims.getStore().getByKey(key);
    if (c == null) {
      cache.removeClaim(key);
    } else {
      cache.putClaim(StorageConverter.claim(c));
    }
  }

  /**
   * What the informer {@code name} (e.g. {@code pods}) holds now, as fabric8 received it; empty for
   * an informer that is not running.
   */
  public synchronized List<HasMetadata> listed(String name) {
    SharedIndexInformer<?> informer = informers.get(name);
    if (informer == null) {
      return List.of();
    }
    return informer.getStore().list().stream().map(HasMetadata.class::cast).toList();
  }

  /** The server's last known pod, as fabric8 holds it (for its grace period), or null. */
  io.fabric8.kubernetes.api.model.Pod rawPod(String key) {
    return pods == null ? null : pods.getStore().getByKey(key);
  }

  @Override
  public synchronized void close() {
    informers.values().forEach(SharedIndexInformer::stop);
    WatchRetryLog.stopped(counters);
  }

  private <
          T extends HasMetadata,
          S extends Informable<T> & Listable<? extends KubernetesResourceList<T>>>
      SharedIndexInformer<T> inform(
          String name, Class<T> kind, S source, Consumer<T> put, Consumer<T> remove) {
    if (kind != GenericKubernetesResource.class) {
      // A watch event names its object's kind; the client reads it as this class only when the
      // kind is registered (Clients#serialization searches no class path).
      client.getKubernetesSerialization().registerKubernetesResource(kind);
    }
    SharedIndexInformer<T> informer = runnableInformer(source);
    cache.listing(name, true); // until its first list is delivered
    informer.addEventHandler(new Handler<>(name, cache, put, remove));
    informer.exceptionHandler(
        (isStarted, t) -> {
          counters.watchErrors.increment();
          onWatchError.run();
          LOG.log(
              Level.WARNING,
              () -> "informer " + name + ": " + ApiErrors.describe(t) + "; retrying with backoff");
          return true;
        });
    informers.put(name, informer);
    listers.put(name, source::list);
    started.add(informer.start().toCompletableFuture());
    return informer;
  }

  /**
   * {@code source.runnableInformer(0)}, with its HTTP watches split on bytes ({@link
   * ByteLineWatchManager}) when {@code source} is one of fabric8's operations, as every source of
   * its client is.
   */
  public static <T extends HasMetadata> SharedIndexInformer<T> runnableInformer(
      Informable<T> source) {
    return source instanceof BaseOperation<?, ?, ?> operation
        ? ByteLineWatchManager.informer(Informers.<T>typed(operation))
        : source.runnableInformer(0);
  }

  /** An operation on {@code T} as the watch factory wants it (fabric8's list type is erased). */
  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> BaseOperation<T, KubernetesResourceList<T>, ?> typed(
      BaseOperation<?, ?, ?> operation) {
    return (BaseOperation<T, KubernetesResourceList<T>, ?>) operation;
  }

  /**
   * Feeds one kind into the cache; a conversion bug is logged, never thrown into fabric8. fabric8
   * calls {@link #onBeforeList} before it hands over the objects of a list (the first one, or a
   * relist after the watch expired) and {@link #onList} after the last of them, in order with the
   * objects themselves; the cache keeps the kinds between the two, and no snapshot is taken while
   * one is there (a session never sees part of a list).
   */
  private static final class Handler<T extends HasMetadata> implements ResourceEventHandler<T> {
    private final String name;
    private final ClusterCache cache;
    private final Consumer<T> put;
    private final Consumer<T> remove;

    Handler(String name, ClusterCache cache, Consumer<T> put, Consumer<T> remove) {
      this.name = name;
      this.cache = cache;
      this.put = put;
      this.remove = remove;
    }

    @Override
    public void onBeforeList(String resourceVersion) {
      cache.listing(name, true);
    }

    @Override
    public void onList(String resourceVersion, boolean emptyList) {
      cache.listing(name, false);
    }

    @Override
    public void onAdd(T obj) {
      safely(put, obj);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      safely(put, newObj);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      safely(remove, obj);
    }

    private void safely(Consumer<T> action, T obj) {
      try {
        action.accept(obj);
      } catch (RuntimeException e) {
        LOG.log(
            Level.ERROR,
            "cannot read " + name + " " + Cache.metaNamespaceKeyFunc(obj) + "; ignored",
            e);
      }
    }
  }
}
