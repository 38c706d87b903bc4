package dev.caldera.kube.internal;

import dev.caldera.admission.Conditions;
import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Applies a session's decisions to the API server, off the session thread: binds through {@code
 * pods/binding}, evictions through the Eviction API (a delete where it is not served), pod
 * conditions, pod group and queue status through their status subresources (JSON merge patches, so
 * no read first), and events.
 *
 * <p>Every write first updates the {@link ClusterCache} the way the write will change the server,
 * so the next session already sees it; a write that fails for good puts the informer's state back
 * (a failed bind leaves the pod pending, and is counted).
 */
public final class KubeWriter {

  private static final System.Logger LOG = System.getLogger(KubeWriter.class.getName());
  private static final String VOLCANO_API = VolcanoConverter.GROUP + "/" + VolcanoConverter.VERSION;

  private final KubernetesClient client;
  private final ClusterCache cache;
  private final Informers informers;
  private final WriteQueue writes;
  private final EventRecorder events;
  private final Counters counters;
  private final Clock clock;
  private final VolumeBinder volumes;
  private final WriteThrottle throttle;
  private volatile BooleanSupplier gate = () -> true;
  private volatile Runnable onUnknownOutcome = () -> {};
  private volatile boolean evictionApiServed = true;
  private final AtomicBoolean podGroupStatusSubresource = new AtomicBoolean(true);

  private final QueueStates queueStates;

  public KubeWriter(
      KubernetesClient client,
      ClusterCache cache,
      Informers informers,
      WriteQueue writes,
      EventRecorder events,
      WriteThrottle throttle,
      Counters counters,
      Clock clock,
      QueueStates queueStates) {
    this.queueStates = queueStates;
    this.throttle = throttle;
    this.client = client;
    this.cache = cache;
    this.informers = informers;
    this.writes = writes;
    this.events = events;
    this.counters = counters;
    this.clock = clock;
    this.volumes = new VolumeBinder(client, cache, informers, writes, clock);
  }

  /** How long a bind waits for its pod's claims to be bound (default 600 s, as kube-scheduler). */
  public void setVolumeBindTimeout(java.time.Duration timeout) {
    volumes.setTimeout(timeout);
  }

  /**
   * What to call when a bind got no answer or a server error: the server may have committed it (or
   * not), and the cache cannot tell until the informers have caught up.
   */
  public void onUnknownOutcome(Runnable listener) {
    this.onUnknownOutcome = Objects.requireNonNull(listener);
  }

  /** Writes are sent only while {@code gate} is true (the leader check). */
  public void setGate(BooleanSupplier gate) {
    this.gate = Objects.requireNonNull(gate);
  }

  /**
   * Queues {@code b} now, while its session goes on, so the API server binds the first gangs of a
   * long session before the last are decided; false, leaving it to {@link #apply}, while writes are
   * not allowed.
   */
  public boolean bindAtCommit(SessionResult.Bind b) {
    if (!gate.getAsBoolean()) {
      return false;
    }
    bind(b.pod(), b.node(), b.volumes());
    return true;
  }

  public void apply(SessionResult r) {
    if (!gate.getAsBoolean()) {
      counters.bindsDropped.add(r.binds().size());
      return;
    }
    if (r.pods() != null) {
      r.pods().forEach(this::podStatus);
    }
    for (SessionResult.Bind b : r.binds()) {
      bind(b.pod(), b.node(), b.volumes());
    }
    for (SessionResult.Eviction e : r.evictions()) {
      evict(e.pod());
    }
    if (r.podGroups() != null) {
      r.podGroups().forEach((key, status) -> podGroupStatus(key, status, r.sessionUid()));
    }
    if (r.queueAllocated() != null) {
      boolean keepStates = queueStates.calderaKeeps();
      r.queueAllocated()
          .forEach(
              (name, allocated) ->
                  queueStatus(
                      name, allocated, keepStates ? r.queueStates().get(name) : null, keepStates));
    }
    for (SessionResult.Event e : r.events()) {
      event(e);
    }
  }

  // ---- binds ---------------------------------------------------------------------------------

  private void bind(String podKey, String node, List<VolumeBinding> claims) {
    Pod pod = cache.pod(podKey);
    if (pod == null) {
      counters.bindsFailed.increment();
      LOG.log(Level.INFO, () -> "not binding " + podKey + ": the pod is gone");
      return;
    }
    if (!pod.nodeName().isEmpty()) {
      return; // bound meanwhile (by an earlier bind of ours, or by someone else)
    }
    // An older condition kept back would reach the pod after its bind and say it is unschedulable.
    throttle.cancel("pod:" + podKey);
    if (!cache.hasNode(node)) {
      counters.bindsFailed.increment();
      bindFailed(pod, node, "node " + node + " is gone");
      return;
    }
    ClusterCache.BindClaim claim = cache.claimBind(pod, node);
    if (claim.overcommit() != null) {
      counters.bindsRefused.increment();
      bindFailed(pod, node, "refused by the writer: " + claim.overcommit());
      return;
    }
    if (!claim.claimed()) {
      return; // a bind is in flight already: never bind twice
    }
    String path = "/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/binding";
    String body = WriteBodies.binding(pod.namespace(), pod.name(), pod.metadata().uid(), node);
    // kube-scheduler's PreBind: the claims are settled before the pod is bound.
    CompletableFuture<Void> claimsBound =
        claims.isEmpty()
            ? CompletableFuture.completedFuture(null)
            : volumes.settle(pod, node, claims, gate);
    claimsBound
        .thenCompose(
            v ->
                writes.submit(
                    "pod:" + podKey,
                    () -> {
                      if (!gate.getAsBoolean()) {
                        throw new NotLeader();
                      }
                      ApiRequests.post(client, path, body);
                    }))
        .whenComplete(
            (v, t) -> {
              if (t == null) {
                counters.bindsSucceeded.increment();
                podEvent(
                    pod,
                    "Normal",
                    "Scheduled",
                    "Binding",
                    "Successfully assigned " + podKey + " to " + node);
                return;
              }
              if (ApiErrors.alreadyAssigned(t)) {
                alreadyBound(pod, node, t);
                return;
              }
              cache.endBind(podKey);
              if (notSent(t)) {
                counters.bindsDropped.increment();
                return;
              }
              if (ApiErrors.outcomeUnknown(t)) {
                onUnknownOutcome.run();
              }
              counters.bindsFailed.increment();
              bindFailed(pod, node, ApiErrors.describe(t));
            });
  }

  /**
   * The server says the pod is bound already: an attempt whose answer was lost (a connection cut
   * with the bind in flight, then a retry) landed, or someone else bound it. Not a failure: the
   * cache takes the node from the answer (or from the API server when the answer names none) so
   * that no session decides the pod again before the watch delivers the change.
   */
  private void alreadyBound(Pod pod, String node, Throwable t) {
    String assigned = ApiErrors.assignedNode(t);
    if (assigned == null) {
      try {
        io.fabric8.kubernetes.api.model.Pod live =
            client.pods().inNamespace(pod.namespace()).withName(pod.name()).get();
        assigned = live == null || live.getSpec() == null ? null : live.getSpec().getNodeName();
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "cannot read {0}: {1}", pod.key(), ApiErrors.describe(e));
      }
    }
    String where = assigned;
    LOG.log(
        Level.INFO,
        () ->
            "bind of "
                + pod.key()
                + " to "
                + node
                + ": the pod is already bound"
                + (where == null ? "" : " to " + where));
    if (where == null || where.isEmpty()) {
      cache.endBind(pod.key());
      informers.resyncPod(pod.key());
      return;
    }
    if (where.equals(node)) {
      counters.bindsSucceeded.increment();
    }
    cache.assumeBound(pod.key(), where);
  }

  /** Volcano's bind failure: condition {@code SchedulerError} and a FailedScheduling event. */
  private void bindFailed(Pod pod, String node, String error) {
    String message = "failed to bind to node " + node + ": " + error;
    LOG.log(Level.WARNING, () -> "bind of " + pod.key() + " failed: " + message);
    podStatus(
        pod.key(),
        new SessionResult.PodStatusUpdate(
            new PodCondition("PodScheduled", "False", "SchedulerError", message), null));
    podEvent(pod, "Warning", "FailedScheduling", "Scheduling", message);
  }

  // ---- evictions -----------------------------------------------------------------------------

  private void evict(String podKey) {
    Pod pod = cache.pod(podKey);
    if (pod == null || !cache.startEviction(podKey, clock.instant())) {
      return;
    }
    throttle.cancel("pod:" + podKey);
    writes
        .submit(
            "pod:" + podKey,
            () -> {
              if (!gate.getAsBoolean()) {
                throw new NotLeader();
              }
              evictNow(pod);
            })
        .whenComplete(
            (v, t) -> {
              if (t == null) {
                counters.evictionsSucceeded.increment();
                return;
              }
              cache.endEviction(podKey);
              if (!notSent(t)) {
                counters.evictionsFailed.increment();
                LOG.log(
                    Level.WARNING,
                    () -> "eviction of " + podKey + " failed: " + ApiErrors.describe(t));
              }
            });
  }

  private void evictNow(Pod pod) {
    if (evictionApiServed) {
      Eviction eviction =
          new EvictionBuilder()
              .withNewMetadata()
              .withName(pod.name())
              .withNamespace(pod.namespace())
              .endMetadata()
              .withDeleteOptions(
                  new DeleteOptionsBuilder()
                      .withNewPreconditions()
                      .withUid(pod.metadata().uid())
                      .endPreconditions()
                      .build())
              .build();
      try {
        if (!client.pods().inNamespace(pod.namespace()).withName(pod.name()).evict(eviction)) {
          // HTTP 429: a disruption budget does not allow it now; worth another try.
          throw new WriteQueue.TransientException("the pod's disruption budget refused it");
        }
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404 && e.getCode() != 405) {
          throw e;
        }
        if (e.getCode() == 404
            && client.pods().inNamespace(pod.namespace()).withName(pod.name()).get() == null) {
          return;
        }
        evictionApiServed = false;
        LOG.log(Level.WARNING, "the Eviction API (policy/v1) is not served; deleting pods instead");
      }
    }
    io.fabric8.kubernetes.api.model.Pod raw = informers.rawPod(pod.key());
    Long grace =
        raw == null || raw.getSpec() == null
            ? null
            : raw.getSpec().getTerminationGracePeriodSeconds();
    client
        .pods()
        .inNamespace(pod.namespace())
        .withName(pod.name())
        .withGracePeriod(grace == null ? 30 : grace)
        .delete();
  }

  // ---- status --------------------------------------------------------------------------------

  private void podStatus(String podKey, SessionResult.PodStatusUpdate update) {
    Pod pod = cache.pod(podKey);
    if (pod == null) {
      return;
    }
    Instant now = clock.instant();
    List<PodCondition> conditions = pod.conditions();
    if (update.condition() != null) {
      conditions = Conditions.replace(conditions, update.condition(), now);
    }
    String nominated =
        update.nominatedNodeName() == null || update.nominatedNodeName().isEmpty()
            ? pod.nominatedNodeName()
            : update.nominatedNodeName();
    cache.putPod(pod.withStatus(pod.nodeName(), pod.phase(), nominated, conditions));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("conditions", conditions.stream().map(KubeWriter::condition).toList());
    if (!nominated.isEmpty()) {
      status.put("nominatedNodeName", nominated);
    }
    String patch = json(Map.of("status", status));
    String path = "/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/status";
    statusWrite(
        "pod:" + podKey,
        false,
        () -> ApiRequests.mergePatch(client, path, patch),
        () -> informers.resyncPod(podKey));
  }

  private void podGroupStatus(String key, SessionResult.PodGroupStatus s, String sessionUid) {
    PodGroup pg = cache.podGroup(key);
    if (pg == null) {
      return; // an implicit group: nothing on the server to update
    }
    int[] counts = {s.running(), s.succeeded(), s.failed()};
    int[] old = cache.podGroupCounts(key);
    if (!s.changed() && java.util.Arrays.equals(counts, old)) {
      return;
    }
    Instant now = clock.instant();
    List<PodCondition> conditions = new ArrayList<>();
    List<Map<String, Object>> written = new ArrayList<>();
    for (PodCondition c : s.conditions() == null ? pg.conditions() : s.conditions()) {
      PodCondition timed = Conditions.timed(pg.conditions(), c, now);
      conditions.add(timed);
      Map<String, Object> m = condition(timed);
      if (c.lastTransitionTime() == null) {
        m.put("transitionID", sessionUid);
      }
      written.add(m);
    }
    String phase = s.phase() == null ? pg.phase() : s.phase();
    cache.putPodGroup(pg.withStatus(phase, conditions), counts);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", phase);
    status.put("conditions", written);
    status.put("running", s.running());
    status.put("succeeded", s.succeeded());
    status.put("failed", s.failed());
    String patch = json(Map.of("status", status));
    String path =
        "/apis/"
            + VOLCANO_API
            + "/namespaces/"
            + pg.metadata().namespace()
            + "/podgroups/"
            + pg.metadata().name();
    statusWrite(
        "podgroup:" + key,
        !phase.equals(pg.phase()), // Volcano's controllers act on the phase: no delay
        () -> patchPodGroupStatus(path, patch),
        () -> informers.resyncPodGroup(key));
  }

  /**
   * Volcano's own PodGroup CRD has no status subresource (its scheduler replaces the whole object),
   * so where {@code podgroups/status} is not found the status goes through the object itself.
   */
  private void patchPodGroupStatus(String path, String patch) {
    if (podGroupStatusSubresource.get()) {
      try {
        ApiRequests.mergePatch(client, path + "/status", patch);
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
        // Not found: the pod group itself is gone, or the CRD serves no status subresource.
        try {
          ApiRequests.mergePatch(client, path, patch);
        } catch (KubernetesClientException gone) {
          throw e;
        }
        if (podGroupStatusSubresource.compareAndSet(true, false)) {
          // Writes run concurrently: several may learn it at once, one says so.
          LOG.log(
              Level.INFO,
              "the PodGroup CRD has no status subresource (Volcano's CRD); writing status through"
                  + " the object");
        }
        return;
      }
    }
    ApiRequests.mergePatch(client, path, patch);
  }

  private static final String QUEUE_CLOSING = "Closing";

  /**
   * @param newState the state the session moved the queue to, or null
   * @param keepStates whether Caldera keeps queue states here (no Volcano queue controller)
   */
  private void queueStatus(
      String name, Map<String, Quantity> allocated, String newState, boolean keepStates) {
    ClusterCache.QueueForWrite cached = cache.queueForWrite(name);
    if (cached == null) {
      return; // the implicit default queue: nothing on the server
    }
    Queue q = cached.queue();
    // Volcano's queue controller writes status.state; where it does not run, Caldera keeps it as
    // that controller would (Open where unset, Closing → Closed), so `kubectl get queue` shows it.
    // A session moves a queue only out of Closing: if the cache says otherwise now, an operator
    // has changed the queue since the session's snapshot, and the move no longer applies.
    boolean moved =
        newState != null && !newState.equals(q.state()) && QUEUE_CLOSING.equals(q.state());
    boolean writeState = keepStates && (cached.stateMissing() || moved);
    if (writeState && moved) {
      q = q.withState(newState);
    }
    if (q.allocated().equals(allocated) && !writeState) {
      return; // no change (Quantity equality is semantic)
    }
    Map<String, Object> written = new LinkedHashMap<>();
    q.allocated().keySet().forEach(k -> written.put(k, null)); // a merge patch removes with null
    allocated.forEach((k, v) -> written.put(k, v.toString()));
    String version = cached.resourceVersion();
    cache.putQueue(q.withAllocated(allocated));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("allocated", written);
    String path = "/apis/" + VOLCANO_API + "/queues/" + name + "/status";
    if (!writeState) {
      String patch = json(Map.of("status", status));
      statusWrite(
          "queue:" + name,
          false,
          () -> ApiRequests.mergePatch(client, path, patch),
          () -> informers.resyncQueue(name));
      return;
    }
    status.put("state", q.state());
    Map<String, Object> body = new LinkedHashMap<>();
    if (version != null) {
      // Only on the version the cache holds, which the session decided on: a close written since
      // (by another writer, or one the informer has not shown yet) must not be overwritten.
      body.put("metadata", Map.of("resourceVersion", version));
    }
    body.put("status", status);
    String patch = json(body);
    statusWrite(
        "queue:" + name,
        true,
        () -> {
          try {
            cache.queueWritten(name, ApiRequests.mergePatchForVersion(client, path, patch));
          } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
              throw e;
            }
            // The queue changed on the server after the version this write was made on; the
            // informer brings the change, and the next session decides on it. The cache keeps
            // what it has now (a command's state, which a resync from the informer's store, not
            // yet caught up, could undo).
            LOG.log(
                Level.DEBUG,
                () -> "queue " + name + " changed on the server; its state is decided again");
          }
        },
        () -> informers.resyncQueue(name));
  }

  /**
   * A status write, at most one per object per {@link WriteThrottle} interval (the latest); an
   * urgent one at once. The cache holds the new status already, so sessions see it meanwhile.
   */
  private void statusWrite(String key, boolean urgent, WriteQueue.Call call, Runnable revert) {
    throttle.offer(key, urgent, () -> sendStatus(key, call, revert));
  }

  private void sendStatus(String key, WriteQueue.Call call, Runnable revert) {
    writes
        .submit(
            key,
            () -> {
              if (!gate.getAsBoolean()) {
                throw new NotLeader();
              }
              call.run();
            })
        .whenComplete(
            (v, t) -> {
              if (t == null) {
                counters.statusWrites.increment();
                return;
              }
              revert.run();
              if (!notSent(t)) {
                counters.statusWriteFailures.increment();
                LOG.log(
                    Level.WARNING,
                    () -> "status write " + key + " failed: " + ApiErrors.describe(t));
              }
            });
  }

  // ---- events --------------------------------------------------------------------------------

  private void event(SessionResult.Event e) {
    ObjectReference regarding =
        switch (e.kind()) {
          case "Pod" -> {
            Pod p = cache.pod(e.object());
            yield p == null ? null : ref("v1", "Pod", p.namespace(), p.name(), p.metadata().uid());
          }
          case "PodGroup" -> {
            PodGroup pg = cache.podGroup(e.object());
            yield pg == null
                ? null
                : ref(
                    VOLCANO_API,
                    "PodGroup",
                    pg.metadata().namespace(),
                    pg.metadata().name(),
                    pg.metadata().uid());
          }
          case "Queue" -> {
            Queue q = cache.queue(e.object());
            yield q == null ? null : ref(VOLCANO_API, "Queue", null, q.name(), q.metadata().uid());
          }
          case "Node" -> {
            // e.g. a node refused for an allocatable out of range: said on the node itself.
            dev.caldera.api.model.Node n = cache.node(e.object());
            yield n == null ? null : ref("v1", "Node", null, n.name(), n.metadata().uid());
          }
          case "PersistentVolume" -> {
            // e.g. a volume left out for a phase Kubernetes does not have.
            var v = cache.volume(e.object());
            yield v == null
                ? null
                : ref("v1", "PersistentVolume", null, v.name(), v.metadata().uid());
          }
          case "PersistentVolumeClaim" -> {
            var c = cache.claim(e.object());
            yield c == null
                ? null
                : ref("v1", "PersistentVolumeClaim", c.namespace(), c.name(), c.metadata().uid());
          }
          default -> null;
        };
    if (regarding == null) {
      // An implicit pod group, the implicit default queue, or an object deleted meanwhile.
      counters.eventsDropped.increment();
      return;
    }
    events.record(regarding, e.type(), e.reason(), action(e.reason()), e.message());
  }

  private void podEvent(Pod p, String type, String reason, String action, String note) {
    if (!gate.getAsBoolean()) {
      return;
    }
    events.record(
        ref("v1", "Pod", p.namespace(), p.name(), p.metadata().uid()), type, reason, action, note);
  }

  /** {@code events.k8s.io/v1} requires an action: what the scheduler was doing. */
  private static String action(String reason) {
    return switch (reason) {
      case "Scheduled" -> "Binding";
      case "Evict" -> "Evicting";
      default -> "Scheduling";
    };
  }

  private static ObjectReference ref(
      String apiVersion, String kind, String namespace, String name, String uid) {
    return new ObjectReferenceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withNamespace(namespace == null || namespace.isEmpty() ? null : namespace)
        .withName(name)
        .withUid(uid)
        .build();
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static Map<String, Object> condition(PodCondition c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", c.type());
    m.put("status", c.status());
    if (c.reason() != null) {
      m.put("reason", c.reason());
    }
    if (c.message() != null) {
      m.put("message", c.message());
    }
    if (c.lastTransitionTime() != null) {
      m.put(
          "lastTransitionTime",
          DateTimeFormatter.ISO_INSTANT.format(
              c.lastTransitionTime().truncatedTo(ChronoUnit.SECONDS)));
    }
    return m;
  }

  private String json(Object o) {
    return client.getKubernetesSerialization().asJson(o);
  }

  /**
   * Whether {@code t} says the write was not sent at all: this replica is no longer the leader, or
   * the writer stopped before the write's turn (counted by the backend, not logged per write).
   */
  private static boolean notSent(Throwable t) {
    Throwable cause = ApiErrors.cause(t);
    return cause instanceof NotLeader || cause instanceof RejectedExecutionException;
  }

  /** A write not sent because this replica is no longer the leader. */
  private static final class NotLeader extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotLeader() {
      super("not the leader", null, false, false);
    }
  }
}
