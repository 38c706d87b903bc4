package dev.caldera.framework.internal.session;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.model.Queue;

/** A queue in a session. */
record QueueState(Queue queue) implements QueueInfo {

  @Override
  public String name() {
    return queue.name();
  }

  @Override
  public String toString() {
    return queue.name();
  }
}
