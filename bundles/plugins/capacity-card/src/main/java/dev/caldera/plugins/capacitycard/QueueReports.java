package dev.caldera.plugins.capacitycard;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The queue annotation problems reported so far, per queue, so that a problem is reported when it
 * appears or changes rather than every session. Shared by the plugins one factory makes.
 */
final class QueueReports {

  private final Map<String, List<String>> reported = new ConcurrentHashMap<>();

  /** Whether {@code problems} differ from what was last reported for {@code queue}. */
  boolean changed(String queue, List<String> problems) {
    List<String> before =
        problems.isEmpty() ? reported.remove(queue) : reported.put(queue, List.copyOf(problems));
    return !problems.isEmpty() && !problems.equals(before);
  }
}
