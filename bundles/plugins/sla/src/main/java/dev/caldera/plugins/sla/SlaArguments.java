package dev.caldera.plugins.sla;

import dev.caldera.api.GoDuration;
import dev.caldera.api.PluginArguments;
import java.time.Duration;

/**
 * The {@code sla} plugin's arguments.
 *
 * @param waitingTime {@code sla-waiting-time}, the longest a job may wait before it is admitted
 *     regardless of resources; null when unset, so only jobs with their own annotation have one
 */
record SlaArguments(Duration waitingTime) {

  static final String WAITING_TIME = "sla-waiting-time";

  SlaArguments {
    if (waitingTime != null && (waitingTime.isNegative() || waitingTime.isZero())) {
      throw new IllegalArgumentException("waiting time must be positive: " + waitingTime);
    }
  }

  /**
   * Reads the arguments. Volcano logs an unparsable or non-positive {@code sla-waiting-time} and
   * runs without one; here it is refused.
   */
  static SlaArguments from(PluginArguments arguments) {
    if (!arguments.has(WAITING_TIME)) {
      return new SlaArguments(null);
    }
    String text = arguments.getString(WAITING_TIME, null);
    Duration d;
    try {
      d = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw arguments.wrong(
          WAITING_TIME, text, "a Go duration such as 3m, 600s or 1h30m (" + e.getMessage() + ")");
    }
    if (d.isNegative() || d.isZero()) {
      throw arguments.wrong(WAITING_TIME, text, "a positive Go duration such as 3m");
    }
    return new SlaArguments(d);
  }
}
