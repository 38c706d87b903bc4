package dev.caldera.framework.loop;

import dev.caldera.api.info.Blocker;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Where pending pod groups stand after the last session: the queue tree, each queue's line in the
 * order the scheduler tries it, and for each pod group the blockers it met. Published as a service
 * by the scheduling loop; every method returns an immutable copy and may be called from any thread.
 * Figures are in Kubernetes units: cores for cpu, bytes for memory, counts otherwise.
 */
@ProviderType
public interface QueueInsight {

  /** Every queue of the last session, parents before children, siblings by name. */
  List<QueueView> queues();

  /** The line of {@code queue} (empty when nothing waits); empty when there is no such queue. */
  Optional<List<Waiting>> pending(String queue);

  /** A pod group by namespace and name, if the last session saw it. */
  Optional<JobView> job(String namespace, String name);

  /** Pod groups whose queue does not exist, with their blocker. */
  List<Waiting> orphans();

  /** When the last session ran; null before the first. */
  Instant lastSession();

  /**
   * Every node of the last session by name, with its allocatable resources and how its cards are
   * used (empty without a plugin that reports cards, such as capacity-card).
   */
  default List<NodeView> nodes() {
    return List.of();
  }

  /**
   * Per card name (whole cards, MIG and MPS slices): the cluster's inventory, what pods hold, and
   * per queue what it holds against its quota; the models a quota names and no node has too
   * (inventory 0). By card name.
   */
  default List<CardModel> cards() {
    return List.of();
  }

  /**
   * Pod groups waiting for more cards of a model than their queue's quota or the cluster's
   * inventory of that model: they can never fit as things stand.
   */
  default List<NeverFits> neverFits() {
    return List.of();
  }

  /**
   * How long the pod groups that wait after the last session have waited: per queue (orphans under
   * the queue they name), the seconds from each one's creation to that session, by pod group name.
   * A pod group without a creation time is left out.
   */
  default Map<String, List<Double>> pendingSeconds() {
    return Map.of();
  }

  /** A node: its allocatable resources (Kubernetes units) and its cards. */
  record NodeView(
      String name, Map<String, Double> allocatable, List<dev.caldera.api.info.CardUse> cards) {}

  /**
   * A card name over the cluster.
   *
   * @param kind {@code whole}, {@code mig} or {@code mps}
   * @param inventory how many the nodes have
   * @param allocated how many placed pods hold
   * @param nodes how many nodes have it
   * @param queues per queue with a quota for it or holding some, by name
   */
  record CardModel(
      String card,
      String kind,
      double inventory,
      double allocated,
      double free,
      int nodes,
      List<QueueCards> queues) {}

  /**
   * A queue's cards of one model.
   *
   * @param quota its {@code volcano.sh/card.quota} for the model; -1 when it sets none
   * @param overInventory whether the quota is more than the cluster's inventory of the model
   */
  record QueueCards(String queue, double allocated, double quota, boolean overInventory) {}

  /**
   * A pod group that can never fit: it asks {@code requested} cards of {@code card}, more than
   * {@code limit} ({@code limitName}: {@code card quota} of its queue, or {@code inventory} of the
   * cluster).
   */
  record NeverFits(
      String podGroup,
      String queue,
      String card,
      double requested,
      double limit,
      String limitName,
      String message) {}

  /** The last {@code max} evictions the sessions decided, oldest first. */
  default List<Eviction> evictions(int max) {
    return List.of();
  }

  /**
   * An eviction a session decided (preempt, reclaim, shuffle).
   *
   * @param podGroup the victim's pod group, {@code queue} its queue
   * @param forPod the pod it made room for, {@code forPodGroup} and {@code forQueue} its pod group
   *     and queue; empty when none
   * @param freed what it frees on {@code node}: the victim's requests, as Kubernetes quantities
   * @param rule the deciding rule ({@code tidal.policy:18 (any may reclaim training)}), else {@code
   *     plugin NAME}
   * @param message all of it as one sentence
   */
  record Eviction(
      Instant time,
      String pod,
      String podGroup,
      String queue,
      String node,
      String action,
      String forPod,
      String forPodGroup,
      String forQueue,
      Map<String, String> freed,
      String rule,
      String message) {}

  /**
   * One queue.
   *
   * @param parent {@code spec.parent} (or the {@code volcano.sh/hierarchy} parent), empty for none
   * @param realCapability what the queue may hold: the cluster total less the other queues'
   *     guarantees, within its capability
   * @param pending pod groups waiting in the queue
   * @param pendingTasks pods waiting in the queue
   * @param quotas quotas plugins keep of the queue (capacity-card: cards per model, by name),
   *     allocated against limit; empty when none does
   */
  record QueueView(
      String name,
      String parent,
      int weight,
      String state,
      Map<String, Double> capability,
      Map<String, Double> deserved,
      Map<String, Double> guarantee,
      Map<String, Double> realCapability,
      Map<String, Double> allocated,
      int pending,
      long pendingTasks,
      List<Blocker.Figure> quotas) {

    public QueueView {
      quotas = quotas == null ? List.of() : List.copyOf(quotas);
    }
  }

  /**
   * A pod group in line.
   *
   * @param position 1 for the first its queue tries; 0 for a pod group in no line
   * @param minResources {@code spec.minResources}, empty when unset
   * @param lastTried when an action last tried it; null when none has yet
   * @param since when its current blocker was first seen
   */
  record Waiting(
      String podGroup,
      String queue,
      int position,
      String phase,
      int minMember,
      Map<String, Double> minResources,
      Blocker blocker,
      Instant lastTried,
      Instant since) {}

  /** A blocker of a pod group, from {@code since} to {@code until} (the last session it held). */
  record Reason(Instant since, Instant until, Blocker blocker) {}

  /**
   * A pod group and its pods.
   *
   * @param waiting its place in line, or null when it does not wait
   * @param history its blockers, oldest first (the last few)
   */
  record JobView(
      String podGroup,
      String queue,
      String phase,
      int minMember,
      Waiting waiting,
      List<Reason> history,
      List<Task> tasks,
      List<Eviction> evictions,
      List<String> holding) {

    /**
     * @param evictions the recent evictions it suffered (its pods evicted) or caused (for its
     *     pods), oldest first
     * @param holding the capacity the last session holds for it, freed by evictions for it and kept
     *     from other jobs until it binds ({@code holding 2 NVIDIA-H100 on node-3 for
     *     inference/svc-7 (freed by evictions for it) until it binds, or for 2 more sessions}), one
     *     line per node; empty when nothing is held for it
     */
    public JobView {
      evictions = evictions == null ? List.of() : List.copyOf(evictions);
      holding = holding == null ? List.of() : List.copyOf(holding);
    }

    /** A pod group for which nothing is held. */
    public JobView(
        String podGroup,
        String queue,
        String phase,
        int minMember,
        Waiting waiting,
        List<Reason> history,
        List<Task> tasks,
        List<Eviction> evictions) {
      this(podGroup, queue, phase, minMember, waiting, history, tasks, evictions, List.of());
    }

    /** A pod group without evictions. */
    public JobView(
        String podGroup,
        String queue,
        String phase,
        int minMember,
        Waiting waiting,
        List<Reason> history,
        List<Task> tasks) {
      this(podGroup, queue, phase, minMember, waiting, history, tasks, List.of(), List.of());
    }
  }

  /**
   * A pod of a pod group.
   *
   * @param node where it runs or is bound; empty when it waits
   * @param reason why it waits ({@code PodScheduled} condition's message); empty otherwise
   */
  record Task(String name, String phase, String node, String reason) {}
}
