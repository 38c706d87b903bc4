package dev.caldera.plugins.usage;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/** The last problem reported about each Prometheus server, so that each is reported once. */
final class MetricsProblems {

  private final Map<URI, String> last = new ConcurrentHashMap<>();

  /** Whether {@code problem} is new for {@code address} (and so to be reported); remembers it. */
  boolean report(URI address, String problem) {
    return !Objects.equals(last.put(address, problem), problem);
  }

  /** The server answered: a later problem is reported again. */
  void clear(URI address) {
    last.remove(address);
  }
}
