package dev.caldera.plugins.capacitycard;

import dev.caldera.api.Session;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Warning events that explain a refusal — on the pod group and its pending pods when a job
 * cannot be enqueued, on the pod when it cannot be allocated or cannot reclaim, on the queue for a
 * bad quota — and their texts. Each event is recorded once per object and message in a session,
 * however often the check repeats.
 */
final class Refusals {

  /** The reason the capacity-card design names for a card (scalar resource) quota refusal. */
  static final String INSUFFICIENT_SCALAR_QUOTA = "InsufficientScalarQuota";

  static final String INSUFFICIENT_CPU_QUOTA = "InsufficientCPUQuota";
  static final String INSUFFICIENT_MEMORY_QUOTA = "InsufficientMemoryQuota";
  static final String INVALID_CARD_ANNOTATION = "InvalidCardAnnotation";

  /**
   * The reason on a pending pod whose pod group was refused at enqueue: the one {@code kubectl
   * describe pod} users look for (a Deployment's pod has no pod group of its own to look at).
   */
  static final String FAILED_SCHEDULING = "FailedScheduling";

  static final String POD = "Pod";
  static final String POD_GROUP = "PodGroup";
  static final String QUEUE = "Queue";

  private final Session session;
  private final Set<String> recorded = ConcurrentHashMap.newKeySet();

  Refusals(Session session) {
    this.session = session;
  }

  /** The session the events go to (and blockers are reported to). */
  Session session() {
    return session;
  }

  /** Records a Warning event once per object and message in this session. */
  void warn(String kind, String key, String reason, String message) {
    if (recorded.add(kind + '\u0000' + key + '\u0000' + message)) {
      session.recordEvent(kind, key, "Warning", reason, message);
    }
  }

  /**
   * {@code Queue <q> has insufficient <card> quota: requested <n>, total would be <t>, but
   * capability is <c>}, counts in cards.
   */
  static String cards(String queue, String card, double requested, double total, double cap) {
    return insufficient(
        queue, "<" + card + ">", Units.cards(requested), Units.cards(total), Units.cards(cap));
  }

  /**
   * The card text for a multi-model pod that fits none of its models: totals and capabilities per
   * model, in the pod's order, joined with {@code |}.
   */
  static String cardsPerModel(String queue, CardSet set, double requested, QueueAccount account) {
    StringBuilder totals = new StringBuilder();
    StringBuilder caps = new StringBuilder();
    for (int c : set.ordered()) {
      if (totals.length() > 0) {
        totals.append('|');
        caps.append('|');
      }
      totals.append(Units.cards(account.allocated[c] + requested));
      caps.append(Units.cards(account.quota[c]));
    }
    return insufficient(
        queue,
        "<" + set.display() + ">",
        Units.cards(requested),
        totals.toString(),
        caps.toString());
  }

  /** The CPU text, in cores or millicores. */
  static String cpu(String queue, double requested, double total, double cap) {
    return insufficient(queue, "CPU", Units.cpu(requested), Units.cpu(total), Units.cpu(cap));
  }

  /** The memory text, in Mi or Gi. */
  static String memory(String queue, double requested, double total, double cap) {
    return insufficient(
        queue, "memory", Units.memory(requested), Units.memory(total), Units.memory(cap));
  }

  private static String insufficient(
      String queue, String what, String requested, String total, String cap) {
    return "Queue <"
        + queue
        + "> has insufficient "
        + what
        + " quota: requested <"
        + requested
        + ">, total would be <"
        + total
        + ">, but capability is <"
        + cap
        + ">";
  }
}
