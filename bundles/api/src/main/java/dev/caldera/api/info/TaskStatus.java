package dev.caldera.api.info;

/** A task's status, as Volcano's {@code TaskStatus} ({@code api/types.go}). */
public enum TaskStatus {
  PENDING,
  ALLOCATED,
  PIPELINED,
  BINDING,
  BOUND,
  RUNNING,
  RELEASING,
  SUCCEEDED,
  FAILED,
  UNKNOWN;

  /** {@code AllocatedStatus}: Allocated, Binding, Bound, Running. */
  public boolean isAllocated() {
    return this == ALLOCATED || this == BINDING || this == BOUND || this == RUNNING;
  }

  /** {@code ScheduledStatus}: Running, Bound, Failed, Succeeded. */
  public boolean isScheduled() {
    return this == RUNNING || this == BOUND || this == FAILED || this == SUCCEEDED;
  }

  /** {@code CompletedStatus}: Succeeded, Failed. */
  public boolean isCompleted() {
    return this == SUCCEEDED || this == FAILED;
  }

  /** {@code PreemptableStatus}: Bound, Running. */
  public boolean isPreemptable() {
    return this == BOUND || this == RUNNING;
  }

  /** Counted by {@code ReadyTaskNum}: Bound, Binding, Running, Allocated, Succeeded. */
  public boolean isReady() {
    return isAllocated() || this == SUCCEEDED;
  }

  /** Counted by {@code ValidTaskNum}: allocated statuses, Succeeded, Pipelined, Pending. */
  public boolean isValid() {
    return isAllocated() || this == SUCCEEDED || this == PIPELINED || this == PENDING;
  }
}
