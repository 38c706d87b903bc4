package dev.caldera.framework.internal.loop;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueInsight;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The loop's answer to "why is it pending": the last session's snapshot and result (kept by
 * reference, views built when asked) and each pod group's blocker history, updated after every
 * session in time proportional to the pod groups that wait.
 */
final class WaitingBoard implements QueueInsight {

  private static final int HISTORY_PER_JOB = 10;
  private static final int JOBS_REMEMBERED = 10_000;

  /** One session's facts. */
  private record Last(
      ClusterSnapshot snapshot, SessionResult result, QueueFigures figures, Instant time) {}

  private volatile Last last;
  // pod group → its blockers, most recently updated last; guarded by this.
  private final LinkedHashMap<String, Deque<Reason>> history =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Reason>> eldest) {
          if (size() > JOBS_REMEMBERED) {
            lastTried.remove(eldest.getKey());
            return true;
          }
          return false;
        }
      };
  private final Map<String, Instant> lastTried = new HashMap<>();
  private static final int EVICTIONS_REMEMBERED = 1_000;
  // The recent evictions, oldest first; guarded by this.
  private final Deque<Eviction> evictions = new ArrayDeque<>();

  /** Takes in a session that ran at {@code time}. */
  void update(ClusterSnapshot snapshot, SessionResult result, QueueFigures figures, Instant time) {
    synchronized (this) {
      for (SessionResult.Waiting w : result.waiting()) {
        Deque<Reason> h = history.remove(w.podGroup());
        if (h == null) {
          h = new ArrayDeque<>();
        }
        Reason previous = h.peekLast();
        if (previous != null && same(previous.blocker(), w.blocker())) {
          // The same reason with other numbers (a total that moved) is no new entry: it keeps its
          // since and shows the latest numbers.
          h.removeLast();
          h.addLast(new Reason(previous.since(), time, w.blocker()));
        } else {
          h.addLast(new Reason(time, time, w.blocker()));
          while (h.size() > HISTORY_PER_JOB) {
            h.removeFirst();
          }
        }
        history.put(w.podGroup(), h);
        if (w.tried()) {
          lastTried.put(w.podGroup(), time);
        }
      }
      for (SessionResult.Eviction e : result.evictions()) {
        evictions.addLast(view(e, time));
        if (evictions.size() > EVICTIONS_REMEMBERED) {
          evictions.removeFirst();
        }
      }
    }
    last = new Last(snapshot, result, figures, time);
  }

  private static Eviction view(SessionResult.Eviction e, Instant time) {
    Map<String, String> freed = new TreeMap<>();
    e.freed().forEach((k, v) -> freed.put(k, v.toString()));
    return new Eviction(
        time,
        e.pod(),
        e.podGroup(),
        e.queue(),
        e.node(),
        e.action(),
        e.forPod(),
        e.forPodGroup(),
        e.forQueue(),
        freed,
        e.rule(),
        e.narrative());
  }

  @Override
  public List<NodeView> nodes() {
    Last l = last;
    if (l == null) {
      return List.of();
    }
    List<NodeView> out = new ArrayList<>();
    for (Node n : l.snapshot().nodes()) {
      out.add(
          new NodeView(
              n.name(),
              amounts(n.allocatable()),
              l.result().nodeCards().getOrDefault(n.name(), List.of())));
    }
    out.sort(java.util.Comparator.comparing(NodeView::name));
    return out;
  }

  @Override
  public List<CardModel> cards() {
    Last l = last;
    return l == null ? List.of() : CardTotals.of(l.result()).models();
  }

  @Override
  public List<NeverFits> neverFits() {
    Last l = last;
    return l == null ? List.of() : CardTotals.of(l.result()).neverFits(l.result().waiting());
  }

  @Override
  public Map<String, List<Double>> pendingSeconds() {
    Last l = last;
    if (l == null) {
      return Map.of();
    }
    Map<String, Instant> created = new HashMap<>();
    for (PodGroup pg : l.snapshot().podGroups()) {
      created.put(pg.key(), pg.metadata().creationTimestamp());
    }
    Map<String, List<Double>> out = new TreeMap<>();
    for (SessionResult.Waiting w : l.result().waiting()) {
      Instant c = created.get(w.podGroup());
      // EPOCH is what a pod group without a creation time gets (ObjectMeta): no age to tell.
      if (c == null || c.equals(Instant.EPOCH)) {
        continue;
      }
      double seconds = Math.max(0, java.time.Duration.between(c, l.time()).toMillis() / 1000.0);
      out.computeIfAbsent(w.queue(), q -> new ArrayList<>()).add(seconds);
    }
    out.replaceAll((q, v) -> List.copyOf(v));
    return java.util.Collections.unmodifiableMap(out);
  }

  @Override
  public synchronized List<Eviction> evictions(int max) {
    List<Eviction> all = new ArrayList<>(evictions);
    return List.copyOf(all.subList(Math.max(0, all.size() - Math.max(0, max)), all.size()));
  }

  /** The remembered evictions {@code podGroup} suffered or caused, oldest first. */
  private synchronized List<Eviction> evictionsOf(String podGroup) {
    List<Eviction> out = new ArrayList<>();
    for (Eviction e : evictions) {
      if (e.podGroup().equals(podGroup) || e.forPodGroup().equals(podGroup)) {
        out.add(e);
      }
    }
    return out;
  }

  private static boolean same(Blocker a, Blocker b) {
    return a.stage() == b.stage()
        && a.plugin().equals(b.plugin())
        && (a.message().equals(b.message())
            || withoutNumbers(a.message()).equals(withoutNumbers(b.message())));
  }

  private static final java.util.regex.Pattern NUMBER =
      java.util.regex.Pattern.compile("\\d+(\\.\\d+)?");

  /** The message with each number as {@code #}: what stays when only a figure moves. */
  static String withoutNumbers(String message) {
    return NUMBER.matcher(message).replaceAll("#");
  }

  @Override
  public Instant lastSession() {
    Last l = last;
    return l == null ? null : l.time();
  }

  @Override
  public List<QueueView> queues() {
    Last l = last;
    if (l == null) {
      return List.of();
    }
    Map<String, Integer> waitingByQueue = new HashMap<>();
    for (SessionResult.Waiting w : l.result().waiting()) {
      if (w.position() > 0) {
        waitingByQueue.merge(w.queue(), 1, Integer::sum);
      }
    }
    Map<String, Double> total = new TreeMap<>();
    for (Node n : l.snapshot().nodes()) {
      if (n.allocatable() != null) {
        n.allocatable().forEach((k, v) -> total.merge(k, v.amount().doubleValue(), Double::sum));
      }
    }
    Map<String, Double> totalGuarantee = new TreeMap<>();
    Map<String, Queue> byName = new TreeMap<>();
    for (Queue q : l.snapshot().queues()) {
      byName.putIfAbsent(q.name(), q);
    }
    byName
        .values()
        .forEach(
            q -> amounts(q.guarantee()).forEach((k, v) -> totalGuarantee.merge(k, v, Double::sum)));
    Map<String, List<String>> children = new TreeMap<>();
    List<String> roots = new ArrayList<>();
    for (Queue q : byName.values()) {
      String parent = parentOf(q, byName);
      if (parent.isEmpty()) {
        roots.add(q.name());
      } else {
        children.computeIfAbsent(parent, p -> new ArrayList<>()).add(q.name());
      }
    }
    List<QueueView> out = new ArrayList<>();
    Deque<String> todo = new ArrayDeque<>();
    for (int i = roots.size() - 1; i >= 0; i--) {
      todo.push(roots.get(i));
    }
    while (!todo.isEmpty()) {
      Queue q = byName.get(todo.pop());
      List<String> kids = children.getOrDefault(q.name(), List.of());
      for (int i = kids.size() - 1; i >= 0; i--) {
        todo.push(kids.get(i));
      }
      Map<String, Double> guarantee = amounts(q.guarantee());
      Map<String, Double> capability = amounts(q.capability());
      Map<String, Double> real = new TreeMap<>();
      total.forEach(
          (k, v) -> {
            double r = v - totalGuarantee.getOrDefault(k, 0.0) + guarantee.getOrDefault(k, 0.0);
            Double cap = capability.get(k);
            real.put(k, cap == null ? r : Math.min(r, cap));
          });
      out.add(
          new QueueView(
              q.name(),
              parentOf(q, byName),
              q.weight(),
              q.state() == null ? "" : q.state(),
              capability,
              amounts(q.deserved()),
              guarantee,
              real,
              l.figures().allocated().getOrDefault(q.name(), Map.of()),
              waitingByQueue.getOrDefault(q.name(), 0),
              l.figures().pending().getOrDefault(q.name(), 0L),
              l.result().queueQuotas().getOrDefault(q.name(), List.of())));
    }
    return List.copyOf(out);
  }

  private static String parentOf(Queue q, Map<String, Queue> byName) {
    if (q.parent() != null && !q.parent().isEmpty() && byName.containsKey(q.parent())) {
      return q.parent().equals(q.name()) ? "" : q.parent();
    }
    if (!q.name().equals("root")
        && byName.containsKey("root")
        && q.parent() != null
        && !q.parent().isEmpty()) {
      return "root";
    }
    return "";
  }

  @Override
  public Optional<List<Waiting>> pending(String queue) {
    Last l = last;
    if (l == null || l.snapshot().queues().stream().noneMatch(q -> q.name().equals(queue))) {
      return Optional.empty();
    }
    List<Waiting> out = new ArrayList<>();
    for (SessionResult.Waiting w : l.result().waiting()) {
      if (w.queue().equals(queue) && w.position() > 0) {
        out.add(view(w));
      }
    }
    return Optional.of(List.copyOf(out));
  }

  @Override
  public List<Waiting> orphans() {
    Last l = last;
    if (l == null) {
      return List.of();
    }
    List<Waiting> out = new ArrayList<>();
    for (SessionResult.Waiting w : l.result().waiting()) {
      if (w.position() == 0) {
        out.add(view(w));
      }
    }
    return List.copyOf(out);
  }

  private Waiting view(SessionResult.Waiting w) {
    Instant tried;
    Instant since;
    synchronized (this) {
      tried = lastTried.get(w.podGroup());
      Deque<Reason> h = history.get(w.podGroup());
      since = h == null || h.isEmpty() ? null : h.peekLast().since();
    }
    return new Waiting(
        w.podGroup(),
        w.queue(),
        w.position(),
        w.phase(),
        w.minMember(),
        amounts(w.minResources()),
        w.blocker(),
        tried,
        since);
  }

  @Override
  public Optional<JobView> job(String namespace, String name) {
    Last l = last;
    if (l == null) {
      return Optional.empty();
    }
    String key = namespace + "/" + name;
    PodGroup group = null;
    for (PodGroup pg : l.snapshot().podGroups()) {
      if (pg.key().equals(key)) {
        group = pg;
        break;
      }
    }
    Waiting waiting = null;
    for (SessionResult.Waiting w : l.result().waiting()) {
      if (w.podGroup().equals(key)) {
        waiting = view(w);
        break;
      }
    }
    // A pod group that pending pods name and that does not exist is answered too, with its blocker.
    if (group == null
        && (waiting == null || waiting.blocker().stage() != Blocker.Stage.PODGROUP_MISSING)) {
      return Optional.empty();
    }
    SessionResult.PodGroupStatus status = l.result().podGroups().get(key);
    Map<String, String> boundTo = new HashMap<>();
    l.result().binds().forEach(b -> boundTo.put(b.pod(), b.node()));
    List<Task> tasks = new ArrayList<>();
    for (Pod p : l.snapshot().pods()) {
      if (!p.namespace().equals(namespace)
          || !name.equals(p.metadata().annotations().get(PodFacts.GROUP_NAME))) {
        continue;
      }
      String node = boundTo.getOrDefault(p.key(), p.nodeName());
      String reason = "";
      SessionResult.PodStatusUpdate update = l.result().pods().get(p.key());
      if (node.isEmpty()) {
        if (update != null && update.condition() != null) {
          reason = update.condition().message();
        } else {
          for (PodCondition c : p.conditions()) {
            if (c.type().equals("PodScheduled") && "False".equals(c.status())) {
              reason = c.message() == null ? "" : c.message();
            }
          }
        }
      }
      String phase = boundTo.containsKey(p.key()) ? "Bound" : p.phase();
      tasks.add(new Task(p.name(), phase, node, reason));
    }
    tasks.sort(java.util.Comparator.comparing(Task::name));
    List<Reason> reasons;
    synchronized (this) {
      Deque<Reason> h = history.get(key);
      reasons = h == null ? List.of() : List.copyOf(h);
    }
    return Optional.of(
        new JobView(
            key,
            group == null ? waiting.queue() : queueOf(group),
            group == null ? "" : status == null ? group.phase() : status.phase(),
            group == null ? 0 : group.minMember(),
            waiting,
            reasons,
            List.copyOf(tasks),
            evictionsOf(key),
            holding(l.result(), key)));
  }

  /** The lines of the last session's {@value #CAPACITY_HELD} events on the pod group. */
  private static List<String> holding(SessionResult result, String podGroup) {
    List<String> out = new ArrayList<>();
    for (SessionResult.Event e : result.events()) {
      if (CAPACITY_HELD.equals(e.reason()) && podGroup.equals(e.object())) {
        out.add(e.message());
      }
    }
    return out;
  }

  /** The reason of the session's event on a pod group for which capacity is held. */
  static final String CAPACITY_HELD = "CapacityHeld";

  private static Map<String, Double> amounts(Map<String, Quantity> quantities) {
    Map<String, Double> out = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach((k, v) -> out.put(k, v.amount().doubleValue()));
    }
    return out;
  }

  /** The queue a pod group names ({@code default} when it names none). */
  private static String queueOf(PodGroup pg) {
    return pg.queue().isEmpty() ? "default" : pg.queue();
  }
}
