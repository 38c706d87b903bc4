package dev.caldera.plugins.cdp;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.GoDuration;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code cdp} (cooldown protection) plugin: a Running pod with {@code
 * volcano.sh/cooldown-time} (label first, then annotation; a Go duration such as {@code 10m}) is
 * not a victim until that long after its {@code PodScheduled=True} condition last changed. Every
 * other candidate is a victim. An invalid duration is reported on the pod once per session and
 * counts as no cooldown.
 */
public final class CdpPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "cdp";

  static final String COOLDOWN_TIME = "volcano.sh/cooldown-time";
  static final String INVALID_REASON = "InvalidCooldownTime";

  /** Marks a pod without (valid) cooldown in the cache. */
  private static final Duration NONE = Duration.ofSeconds(Long.MIN_VALUE);

  private Session session;

  /** pod UID → its cooldown, parsed once per session. */
  private final Map<String, Duration> cooldowns = new HashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    extensions.add(ExtensionPoint.PREEMPTABLE, (preemptor, c) -> Victims.permit(filter(c)));
    extensions.add(ExtensionPoint.RECLAIMABLE, (reclaimer, c) -> Victims.permit(filter(c)));
  }

  /** The candidates not under cooldown protection, in order. */
  List<TaskInfo> filter(List<TaskInfo> candidates) {
    List<TaskInfo> victims = new ArrayList<>(candidates.size());
    Instant now = session.now();
    for (TaskInfo task : candidates) {
      if (!protectedAt(task, now)) {
        victims.add(task);
      }
    }
    return victims;
  }

  private boolean protectedAt(TaskInfo task, Instant now) {
    Duration cooldown = cooldown(task);
    if (cooldown == null) {
      return false;
    }
    Pod pod = task.pod();
    if (!"Running".equals(pod.phase())) {
      return false;
    }
    for (PodCondition c : pod.conditions()) {
      if ("PodScheduled".equals(c.type()) && "True".equals(c.status())) {
        // an unknown transition time is Go's zero time, long past
        return c.lastTransitionTime() != null && c.lastTransitionTime().plus(cooldown).isAfter(now);
      }
    }
    return false;
  }

  private Duration cooldown(TaskInfo task) {
    Duration cached = cooldowns.get(task.uid());
    if (cached == null) {
      cached = parseCooldown(task);
      cooldowns.put(task.uid(), cached);
    }
    return cached == NONE ? null : cached;
  }

  private Duration parseCooldown(TaskInfo task) {
    Pod pod = task.pod();
    String where = "label";
    String text = pod.metadata().labels().get(COOLDOWN_TIME);
    if (text == null) {
      where = "annotation";
      text = pod.metadata().annotations().get(COOLDOWN_TIME);
      if (text == null) {
        return NONE;
      }
    }
    try {
      return GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      session.recordEvent(
          "Pod",
          pod.key(),
          "Warning",
          INVALID_REASON,
          "invalid "
              + where
              + " "
              + COOLDOWN_TIME
              + "=\""
              + text
              + "\" ("
              + e.getMessage()
              + "); the pod has no cooldown protection");
      return NONE;
    }
  }
}
