package dev.caldera.kube;

/**
 * What the Kubernetes writer and informers have done since start, as plain counters for the admin
 * bundle's metrics. Every value only grows, except {@link #writesInFlight()}. Thread-safe; the
 * values are read without a lock, so two of them may be from slightly different moments.
 */
public interface KubeCounters {

  /** Pods the API server accepted a binding for. */
  long bindsSucceeded();

  /**
   * Binds that failed for good (conflict, pod or node gone, retries used up); each such pod went
   * back to pending for a later session.
   */
  long bindsFailed();

  /**
   * Binds the writer refused to send because the node would have held more than its allocatable,
   * counting every pod known on it and the binds in flight (a decision from a stale view).
   */
  long bindsRefused();

  /** Binds not sent because this replica stopped being the leader before sending them. */
  long bindsDropped();

  /** Pods evicted (Eviction API or, where that is not served, a delete). */
  long evictionsSucceeded();

  /** Evictions that failed for good (disruption budget, retries used up, ...). */
  long evictionsFailed();

  /** Status writes that reached the server: pod conditions, pod group and queue status. */
  long statusWrites();

  /** Status writes that failed for good. */
  long statusWriteFailures();

  /** Events created or updated (a repeated event updates its series count). */
  long eventsWritten();

  /** Events not written: failed, or about an object the server does not hold. */
  long eventsDropped();

  /** Attempts repeated after a transient API error (5xx, 429, I/O). */
  long retries();

  /** List or watch failures of the informers (each is retried). */
  long watchErrors();

  /** Writes queued or running now. */
  long writesInFlight();
}
