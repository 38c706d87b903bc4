package dev.caldera.load;

import dev.caldera.load.LoadObjects.PodShape;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The validated settings of one run ({@link LoadTool} reads them from the command line).
 *
 * @param nodeSelector the labelled nodes to use, or null to create {@code nodes} fake nodes
 * @param gangSize pods per gang, 0 for plain pods
 * @param gangPodsTogether whether a gang's pods are created at once (as a job controller creates a
 *     job's pods) rather than one after the other at the rate
 * @param backlog pods created before the scheduler is launched; 0 for a paced stream
 * @param launch the scheduler's shell command, or null
 * @param schedulerPid the running scheduler's process id, or null
 */
record LoadSettings(
    Path kubeconfig,
    String context,
    int nodes,
    Map<String, String> nodeSelector,
    String queue,
    String schedulerName,
    double rate,
    Duration duration,
    int gangSize,
    boolean gangPodsTogether,
    PodShape pod,
    int backlog,
    Duration settle,
    String launch,
    Long schedulerPid,
    Duration drain,
    int workers,
    boolean json) {

  LoadSettings {
    Objects.requireNonNull(queue);
    Objects.requireNonNull(schedulerName);
    Objects.requireNonNull(duration);
    Objects.requireNonNull(pod);
    Objects.requireNonNull(settle);
    Objects.requireNonNull(drain);
    nodeSelector = nodeSelector == null ? null : Map.copyOf(nodeSelector);
  }

  boolean createsNodes() {
    return nodeSelector == null;
  }

  boolean backlogMode() {
    return backlog > 0;
  }

  boolean gangs() {
    return gangSize > 0;
  }

  /** The pace of the stream (also for a backlog, where it is not used). */
  PaceSchedule schedule() {
    return new PaceSchedule(rate, gangs() && gangPodsTogether ? gangSize : 1);
  }

  /** The pods of the run: the backlog, or the stream's pods in whole gangs. */
  Workload workload() {
    if (backlogMode()) {
      return new Workload(gangSize, gangs() ? backlog / gangSize : backlog);
    }
    return Workload.ofAbout(schedule().podsIn(duration.toNanos() / 1e9), gangSize);
  }

  /**
   * Why {@code pods} are more than the fake nodes of the run hold, or null (also for nodes found by
   * label, whose room this run does not know). The pods left over stay pending until the clean-up:
   * a scheduler considers them in every cycle, and the report counts them as never bound.
   */
  String overfilled(int pods) {
    if (!createsNodes()) {
      return null;
    }
    long each = LoadObjects.podsAFakeNodeHolds(pod);
    long room = each * nodes;
    if (pods <= room) {
      return null;
    }
    long enough = each == 0 ? -1 : (pods + each - 1) / each;
    return "the run's "
        + pods
        + " pods are more than its "
        + nodes
        + " fake nodes hold ("
        + each
        + " a node, for pods of cpu "
        + pod.cpu()
        + " and memory "
        + pod.memory()
        + "): "
        + (pods - room)
        + " will stay pending"
        + (enough < 0 ? "" : "; --nodes " + enough + " holds them all");
  }

  /** What the run submits, in a few words. */
  String describe() {
    String shape = "cpu " + pod.cpu() + ", memory " + pod.memory();
    String what =
        gangs()
            ? "gangs of "
                + gangSize
                + " pods ("
                + shape
                + ") in queue "
                + queue
                + (gangPodsTogether ? ", each gang's pods at once" : ", one pod after the other")
            : "plain pods (" + shape + ")";
    String when =
        backlogMode()
            ? "a backlog of " + backlog + " pods, then the scheduler launched"
            : LoadReport.number(rate) + " pods/s for " + Durations.format(duration);
    return what + ", " + when + ", schedulerName " + schedulerName;
  }
}
