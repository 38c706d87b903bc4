package dev.caldera.runtime.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What was benchmarked: either the synthetic cluster (nodes, pods, queues, tasks per job) or a
 * scenario file; the other fields are null.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Workload(
    String scenario,
    Integer nodes,
    Integer pods,
    Integer queues,
    Integer tasksPerJob,
    int sessions,
    int warmup) {

  /** The synthetic workload of {@code bench-workload.md}. */
  public static Workload synthetic(
      int nodes, int pods, int queues, int tasksPerJob, int sessions, int warmup) {
    return new Workload(null, nodes, pods, queues, tasksPerJob, sessions, warmup);
  }

  /** A scenario file. */
  public static Workload scenario(String name, int sessions, int warmup) {
    return new Workload(name, null, null, null, null, sessions, warmup);
  }

  /** One line for the table output. */
  public String describe() {
    String what =
        scenario != null
            ? "scenario " + scenario
            : String.format(
                "%d nodes, %d pods (%d jobs x %d tasks, %d queues)",
                nodes, pods, pods / tasksPerJob, tasksPerJob, queues);
    return what
        + ", "
        + sessions
        + (sessions == 1 ? " session" : " sessions")
        + ", "
        + warmup
        + " warm-up";
  }
}
