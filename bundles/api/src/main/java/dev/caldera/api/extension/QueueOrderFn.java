package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Orders queues: negative puts {@code l} first, 0 lets the next plugin decide. */
@ConsumerType
@FunctionalInterface
public interface QueueOrderFn {
  int compare(QueueInfo l, QueueInfo r);
}
