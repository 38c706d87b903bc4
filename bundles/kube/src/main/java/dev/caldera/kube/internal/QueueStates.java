package dev.caldera.kube.internal;

import dev.caldera.api.model.Queue;
import dev.caldera.framework.loop.QueueLifecycle;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Who keeps the queues' {@code status.state} on this cluster, and an operator's close, drain and
 * open where Caldera keeps them.
 *
 * <p>Volcano's queue controller keeps them wherever Volcano is installed; every Volcano install
 * serves its {@code bus.volcano.sh} API group (the Command CRD through which {@code vcctl queue
 * operate} asks the controller to open or close a queue), and the standalone install (Caldera's
 * {@code runtime/deploy/crds/}: Queue and PodGroup only) does not. So: that group served, Volcano
 * keeps the states and Caldera writes none; not served, Caldera keeps them. Asked at start, again
 * every {@link #RECHECK} (a Volcano installed later is noticed) and at every operator command;
 * until the API server has said, no state is written.
 */
public final class QueueStates {

  private static final System.Logger LOG = System.getLogger(QueueStates.class.getName());

  /** Volcano's bus API group, served wherever Volcano's controllers are installed. */
  static final String VOLCANO_BUS = "/apis/bus.volcano.sh";

  /** How long an answer about who keeps the states holds. */
  public static final Duration RECHECK = Duration.ofMinutes(1);

  private final KubernetesClient client;
  private final ClusterCache cache;
  private final Informers informers;
  private volatile Boolean volcano;

  public QueueStates(KubernetesClient client, ClusterCache cache, Informers informers) {
    this.client = client;
    this.cache = cache;
    this.informers = informers;
  }

  /**
   * Whether Caldera keeps queue states here (no Volcano), as last asked; false until the API server
   * has answered. No request: the session's writer asks this.
   */
  boolean calderaKeeps() {
    return Boolean.FALSE.equals(volcano);
  }

  /** Asks the API server again whether Volcano is installed. */
  public synchronized void check() {
    Boolean before = volcano;
    try {
      volcano = servesVolcanoBus(ApiRequests.getOrNull(client, VOLCANO_BUS));
    } catch (RuntimeException e) {
      LOG.log(
          Level.DEBUG,
          "cannot tell whether Volcano is installed ({0}); queue states are left alone",
          ApiErrors.describe(e));
      return;
    }
    if (!volcano.equals(before)) {
      LOG.log(
          Level.INFO,
          volcano
              ? "Volcano is installed (bus.volcano.sh served): its queue controller keeps queue"
                  + " states; Caldera writes none"
              : "no Volcano queue controller (bus.volcano.sh not served): Caldera keeps queue"
                  + " states");
    }
  }

  /**
   * Whether a discovery answer is the APIGroup {@code bus.volcano.sh}: a server that answers other
   * paths with 200 (a proxy's page, a mock server) does not make Volcano installed.
   */
  private boolean servesVolcanoBus(String body) {
    if (body == null || body.isBlank()) {
      return false;
    }
    try {
      APIGroup group = client.getKubernetesSerialization().unmarshal(body, APIGroup.class);
      return group != null && "bus.volcano.sh".equals(group.getName());
    } catch (RuntimeException notAnApiGroup) {
      return false;
    }
  }

  /** Carries out an operator's command; see {@link QueueLifecycle}. */
  public QueueLifecycle.Outcome apply(String name, QueueLifecycle.Command command) {
    synchronized (this) {
      check();
      if (volcano == null) {
        return new QueueLifecycle.Outcome(
            QueueLifecycle.Result.FAILED,
            "",
            "cannot tell whether Volcano's queue controller runs here (the API server did not"
                + " answer GET "
                + VOLCANO_BUS
                + "); try again");
      }
    }
    Queue q = cache.queue(name);
    QueueLifecycle.Plan plan = QueueLifecycle.plan(name, command, cache.queues());
    if (plan.refused() != null) {
      return new QueueLifecycle.Outcome(
          QueueLifecycle.Result.REFUSED, q == null ? "" : q.state(), plan.refused());
    }
    if (q == null) {
      return new QueueLifecycle.Outcome(
          QueueLifecycle.Result.NOT_FOUND, "", "queue " + name + " does not exist");
    }
    if (volcano) {
      return new QueueLifecycle.Outcome(
          QueueLifecycle.Result.KEPT_BY_VOLCANO,
          q.state(),
          QueueLifecycle.volcanoWay(name, command));
    }
    for (QueueLifecycle.Change c : plan.changes()) {
      Queue target = c.queue().equals(name) ? q : cache.queue(c.queue());
      if (target == null) {
        continue;
      }
      String failed = write(target, c);
      if (failed != null) {
        return new QueueLifecycle.Outcome(
            QueueLifecycle.Result.FAILED,
            q.state(),
            "cannot "
                + command.word()
                + " queue "
                + name
                + (c.queue().equals(name) ? "" : " (writing queue " + c.queue() + " under it)")
                + ": "
                + failed);
      }
    }
    return new QueueLifecycle.Outcome(
        QueueLifecycle.Result.DONE,
        plan.changes().get(0).state(),
        QueueLifecycle.done(plan, command, cache.queues()));
  }

  /** Writes one queue's change (drain mark, then state); null when done, else the reason. */
  private String write(Queue q, QueueLifecycle.Change change) {
    String name = q.name();
    String state = change.state();
    String path = "/apis/" + VolcanoConverter.GROUP + "/" + VolcanoConverter.VERSION + "/queues/";
    Map<String, String> annotations = new HashMap<>(q.metadata().annotations());
    boolean draining = "true".equals(annotations.get(QueueLifecycle.DRAIN_ANNOTATION));
    // The version the last write answered with: a session's next state write is made on it.
    String version = null;
    try {
      // The drain mark first: once the state says Closing, the next session knows to evict.
      if (Boolean.TRUE.equals(change.drain()) && !draining) {
        version =
            ApiRequests.mergePatchForVersion(
                client, path + name, annotationPatch(QueueLifecycle.DRAIN_ANNOTATION, "\"true\""));
        annotations.put(QueueLifecycle.DRAIN_ANNOTATION, "true");
      } else if (Boolean.FALSE.equals(change.drain())
          && annotations.containsKey(QueueLifecycle.DRAIN_ANNOTATION)) {
        version =
            ApiRequests.mergePatchForVersion(
                client, path + name, annotationPatch(QueueLifecycle.DRAIN_ANNOTATION, "null"));
        annotations.remove(QueueLifecycle.DRAIN_ANNOTATION);
      }
      if (!state.equals(q.state()) || cache.queueStateMissing(name)) {
        version =
            ApiRequests.mergePatchForVersion(
                client, path + name + "/status", "{\"status\":{\"state\":\"" + state + "\"}}");
      }
    } catch (RuntimeException e) {
      informers.resyncQueue(name);
      return ApiErrors.describe(e);
    }
    cache.putQueueWritten(q.withAnnotations(annotations).withState(state), version);
    return null;
  }

  private static String annotationPatch(String key, String jsonValue) {
    return "{\"metadata\":{\"annotations\":{\"" + key + "\":" + jsonValue + "}}}";
  }
}
