package dev.caldera.framework.loop;

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
    FAILED
  }
}
