package dev.caldera.api.info;

import dev.caldera.api.model.Queue;
import java.time.Instant;
import org.osgi.annotation.versioning.ProviderType;

/** A read-only view of a queue in a session. */
@ProviderType
public interface QueueInfo {

  /** The queue name (also its UID). */
  String name();

  /** The queue as read from the cluster. */
  Queue queue();

  /** {@code spec.weight}. */
  default int weight() {
    return queue().weight();
  }

  /** {@code spec.reclaimable}; true when unset. */
  default boolean reclaimable() {
    return queue().reclaimable() == null || queue().reclaimable();
  }

  /** Whether {@code status.state} is Open. */
  default boolean isOpen() {
    return "Open".equals(queue().state());
  }

  /** {@code spec.parent}; empty means root. */
  default String parent() {
    return queue().parent();
  }

  /** {@code spec.priority}. */
  default int priority() {
    return queue().priority();
  }

  /** The queue's creation time. */
  default Instant creationTimestamp() {
    return queue().metadata().creationTimestamp();
  }
}
