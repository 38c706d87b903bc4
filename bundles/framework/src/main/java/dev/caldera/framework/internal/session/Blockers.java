package dev.caldera.framework.internal.session;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.CardUse;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why jobs do not run: the last blocker reported per job and per queue, the quota figures and card
 * use plugins report, and who is deciding (the action running and the plugin whose function is
 * being called), to name them in a blocker.
 */
final class Blockers {

  private final Map<String, Blocker> jobs = new ConcurrentHashMap<>();
  private final Map<String, Blocker> queues = new ConcurrentHashMap<>();
  private final Map<String, List<Blocker.Figure>> queueQuotas = new ConcurrentHashMap<>();
  private final Map<String, List<CardUse>> nodeCards = new ConcurrentHashMap<>();
  private int reports;
  private String action = "";
  private String plugin = "";

  /** The action whose {@code execute} runs now, named in the blockers reported under it. */
  void startAction(String name) {
    action = name;
  }

  String action() {
    return action;
  }

  /**
   * Names {@code plugin} in the blockers reported until {@link #called}; returns the count of
   * reports so far, for {@link #reportedSince}.
   */
  int calling(String plugin) {
    this.plugin = plugin;
    return reports;
  }

  /** Ends {@link #calling}. */
  void called() {
    plugin = "";
  }

  /** Whether a blocker was reported since {@link #calling} answered {@code count}. */
  boolean reportedSince(int count) {
    return reports != count;
  }

  /** A plugin's or an action's report, stamped with the action and plugin deciding now. */
  void report(JobInfo job, Blocker blocker) {
    if (job == null || blocker == null) {
      return;
    }
    reports++;
    jobs.put(job.uid(), blocker.from(action, plugin));
  }

  /** As {@link #report}, for a queue. */
  void reportQueue(QueueInfo queue, Blocker blocker) {
    if (queue == null || blocker == null) {
      return;
    }
    reports++;
    queues.put(queue.name(), blocker.from(action, plugin));
  }

  /** The framework's own blocker of a job, as it is. */
  void put(String jobUid, Blocker blocker) {
    jobs.put(jobUid, blocker);
  }

  /** The framework's own blocker of a queue, as it is. */
  void putQueue(String queue, Blocker blocker) {
    queues.put(queue, blocker);
  }

  void reportQueueQuota(QueueInfo queue, List<Blocker.Figure> figures) {
    if (queue != null && figures != null) {
      queueQuotas.put(queue.name(), List.copyOf(figures));
    }
  }

  void reportNodeCards(NodeInfo node, List<CardUse> cards) {
    if (node != null && cards != null) {
      nodeCards.put(node.name(), List.copyOf(cards));
    }
  }

  /** The last blocker of the job with this UID, or null. */
  Blocker ofJob(String uid) {
    return jobs.get(uid);
  }

  /** The last blocker of the queue with this name, or null. */
  Blocker ofQueue(String name) {
    return queues.get(name);
  }

  /** The quota figures per queue, by name. */
  Map<String, List<Blocker.Figure>> queueQuotas() {
    return new TreeMap<>(queueQuotas);
  }

  /** The card use per node, by name. */
  Map<String, List<CardUse>> nodeCards() {
    return new TreeMap<>(nodeCards);
  }
}
