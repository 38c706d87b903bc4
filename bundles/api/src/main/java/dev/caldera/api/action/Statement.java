package dev.caldera.api.action;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ProviderType;

/**
 * An ordered list of operations whose effect on the session is immediate and whose effect on the
 * cluster waits for {@link #commit()} (Volcano's {@code framework.Statement}). {@link #discard()}
 * undoes the operations in reverse order, calling event handlers so plugins' bookkeeping follows.
 */
@ProviderType
public interface Statement {

  /** Marks the task Releasing; it stops counting for plugins at once. Never fails. */
  void evict(TaskInfo task, String reason);

  /** Pipelines the task onto the node; a handler failure rolls it back and is returned. */
  Status pipeline(TaskInfo task, NodeInfo node, boolean evictionOccurred);

  /** Allocates the task to the node; a handler failure rolls it back and is returned. */
  Status allocate(TaskInfo task, NodeInfo node);

  /** Sends the evictions and binds; pipelined tasks stay pipelined in the session. */
  void commit();

  /** Undoes every operation, newest first. */
  void discard();

  /** Moves the operations of {@code other} (already applied in memory) to the end of this one. */
  void merge(Statement other);

  /** Whether there is any operation. */
  boolean isEmpty();
}
