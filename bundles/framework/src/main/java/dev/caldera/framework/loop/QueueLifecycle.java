package dev.caldera.framework.loop;

import dev.caldera.api.model.Queue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * An operator's close, drain and open of a queue, on the cluster a source schedules. Published as a
 * service by a cluster source (the embedded cluster, the kube bundle); the admin API's {@code POST
 * /api/queues/NAME/close|drain|open} calls it from its threads.
 *
 * <p>Where Caldera keeps queue states (no Volcano queue controller: the embedded cluster, the
 * standalone install), a command writes the queue's {@code status.state} and sessions carry it on
 * as Volcano's queue controller does: a Closing queue whose pods have all stopped becomes Closed.
 * Beside Volcano's queue controller the source writes nothing and refuses, saying how to do it with
 * Volcano.
 */
@ConsumerType
public interface QueueLifecycle {

  /**
   * The annotation that marks a queue being drained: sessions evict what runs of a queue that
   * carries it with the value {@code "true"} and is not Open (PodDisruptionBudgets honoured).
   */
  String DRAIN_ANNOTATION = "caldera.dev/drain";

  /** What an operator asks. */
  enum Command {
    /** No new pod group is admitted; what runs goes on (Closing, then Closed). */
    CLOSE,
    /** Close, and evict what runs (Closing until nothing runs, then Closed). */
    DRAIN,
    /** Admit pod groups again (Open); a drain in progress stops. */
    OPEN;

    /** The command's name in the admin API and the command line. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The {@code status.state} a command leaves a queue in: close and drain take an Open (or Unknown)
   * queue to Closing, which sessions turn into Closed once nothing of it runs, and leave a Closing
   * or Closed one as it is; open makes any queue Open.
   */
  static String stateAfter(String current, Command command) {
    if (command == Command.OPEN) {
      return "Open";
    }
    return "Closed".equals(current) || "Closing".equals(current) ? current : "Closing";
  }

  /**
   * What to run instead where Volcano's queue controller keeps the states: {@code vcctl queue
   * operate} makes a {@code bus.volcano.sh} Command the controller carries out.
   */
  static String volcanoWay(String name, Command command) {
    String vcctl =
        "vcctl queue operate --name "
            + name
            + " --action "
            + (command == Command.OPEN ? "open" : "close");
    String what =
        "Volcano's queue controller keeps queue states on this cluster and Caldera does not write"
            + " them; run `"
            + vcctl
            + "` (it creates a bus.volcano.sh/v1alpha1 Command that the controller carries out)";
    return command == Command.DRAIN
        ? what
            + ", then `kubectl annotate queue "
            + name
            + " "
            + DRAIN_ANNOTATION
            + "=true` to have Caldera evict what runs of it while it is not Open"
        : what;
  }

  /** The queue that holds every other; it is never closed. */
  String ROOT = "root";

  /**
   * One queue's change under a command.
   *
   * @param queue the queue's name
   * @param state the {@code status.state} it gets
   * @param drain whether the drain mark is set (true), removed (false) or left as it is (null)
   */
  record Change(String queue, String state, Boolean drain) {}

  /**
   * What a command does to the queue tree (children by {@code spec.parent}), as Volcano's queue
   * admission does for hierarchical queues: the {@code root} queue is never closed or drained;
   * closing a queue closes every queue under it that is not already Closing or Closed, draining one
   * drains every queue under it; a queue whose parent is Closing or Closed is not opened (opening a
   * parent leaves its children as they are).
   *
   * @param changes the queue named first, then the queues under it, parents before children and
   *     siblings by name; empty when refused
   * @param refused why the command is not carried out, or null
   */
  record Plan(List<Change> changes, String refused) {

    public Plan {
      changes = List.copyOf(changes);
    }

    /** The names of the queues changed besides the first, in order. */
    public List<String> others() {
      return changes.stream().skip(1).map(Change::queue).toList();
    }
  }

  /** The plan of {@code command} on the existing queue {@code name} among {@code queues}. */
  static Plan plan(String name, Command command, Collection<Queue> queues) {
    Map<String, Queue> byName = new TreeMap<>();
    Map<String, List<String>> children = new TreeMap<>();
    for (Queue q : queues) {
      byName.put(q.name(), q);
    }
    for (Queue q : byName.values()) {
      if (!q.parent().isEmpty() && !q.parent().equals(q.name())) {
        children.computeIfAbsent(q.parent(), p -> new ArrayList<>()).add(q.name());
      }
    }
    Queue queue = byName.get(name);
    String current = queue == null ? "" : queue.state();
    if (command == Command.OPEN) {
      Queue parent = queue == null ? null : byName.get(queue.parent());
      if (parent != null && !ROOT.equals(parent.name()) && notOpen(parent.state())) {
        return new Plan(
            List.of(),
            "queue "
                + name
                + " cannot be opened while its parent queue "
                + parent.name()
                + " is "
                + parent.state()
                + ": open "
                + parent.name()
                + " first");
      }
      return new Plan(List.of(new Change(name, "Open", Boolean.FALSE)), null);
    }
    if (ROOT.equals(name)) {
      return new Plan(
          List.of(),
          "queue root cannot be "
              + (command == Command.DRAIN ? "drained" : "closed")
              + ": every queue is under it; "
              + command.word()
              + " its child queues instead");
    }
    Boolean drain = command == Command.DRAIN ? Boolean.TRUE : null;
    List<Change> changes = new ArrayList<>();
    changes.add(new Change(name, stateAfter(current, command), drain));
    Set<String> seen = new HashSet<>(List.of(name));
    Deque<String> todo = new ArrayDeque<>(List.of(name));
    while (!todo.isEmpty()) {
      for (String child : children.getOrDefault(todo.poll(), List.of())) {
        if (!seen.add(child)) {
          continue;
        }
        todo.add(child);
        String state = byName.get(child).state();
        if (command == Command.DRAIN || !notOpen(state)) {
          changes.add(new Change(child, stateAfter(state, command), drain));
        }
      }
    }
    return new Plan(changes, null);
  }

  /**
   * The nearest queue above {@code queue} (by {@code spec.parent}) that is not Open, {@code root}
   * left out as Volcano leaves it out; null when every one is Open. A queue under a Closing or
   * Closed parent admits no new pod group, as its own closing would (Volcano closes the children of
   * a closed queue; here they may not have followed yet, or were created under it since).
   */
  static dev.caldera.api.info.QueueInfo closedAncestor(
      dev.caldera.api.info.QueueInfo queue,
      java.util.function.Function<String, ? extends dev.caldera.api.info.QueueInfo> byName) {
    Set<String> seen = new HashSet<>();
    String parent = queue.parent();
    while (!parent.isEmpty() && !ROOT.equals(parent) && seen.add(parent)) {
      dev.caldera.api.info.QueueInfo p = byName.apply(parent);
      if (p == null) {
        return null;
      }
      if (!p.isOpen()) {
        return p;
      }
      parent = p.parent();
    }
    return null;
  }

  /** Closing or Closed. */
  private static boolean notOpen(String state) {
    return "Closing".equals(state) || "Closed".equals(state);
  }

  /**
   * The operator's line for a plan carried out: the first queue's state, the queues closed or
   * drained with it, and for open the children that stay closed.
   */
  static String done(Plan plan, Command command, Collection<Queue> queues) {
    Change first = plan.changes().get(0);
    StringBuilder sb = new StringBuilder("queue " + first.queue() + " is " + first.state());
    List<String> others = plan.others();
    if (!others.isEmpty()) {
      sb.append(
              others.size() == 1
                  ? "; so is the queue under it: "
                  : "; so are the queues under it: ")
          .append(String.join(", ", others));
    }
    if (command == Command.DRAIN) {
      sb.append(others.isEmpty() ? "; what runs of it" : "; what runs of them")
          .append(" is being evicted");
    }
    if (command == Command.OPEN) {
      List<String> closed = new ArrayList<>();
      for (Queue q : queues) {
        if (q.parent().equals(first.queue()) && notOpen(q.state())) {
          closed.add(q.name() + " (" + q.state() + ")");
        }
      }
      closed.sort(null);
      if (!closed.isEmpty()) {
        sb.append("; the queues under it stay as they are: ")
            .append(String.join(", ", closed))
            .append(" (open each with caldera queue open NAME)");
      }
    }
    return sb.toString();
  }

  /** Applies {@code command} to the queue {@code name}. */
  Outcome apply(String name, Command command);

  /**
   * What came of a command.
   *
   * @param result what happened
   * @param state the queue's {@code status.state} after the command (as requested), empty when the
   *     queue does not exist
   * @param message one line for the operator
   */
  record Outcome(Result result, String state, String message) {}

  /** How a command ended. */
  enum Result {
    /** Written (or nothing to change). */
    DONE,
    /** No queue by that name. */
    NOT_FOUND,
    /** Volcano's queue controller keeps the states here: the message says what to run. */
    KEPT_BY_VOLCANO,
    /** The cluster refused or failed the write; the message names the reason. */
    FAILED,
    /**
     * Not carried out: the {@code root} queue is never closed or drained, and a queue is not opened
     * under a Closing or Closed parent. The message says why.
     */
    REFUSED
  }
}
