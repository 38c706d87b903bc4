package dev.caldera.admission;

import dev.caldera.api.model.PodCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Pod and pod group condition lists as a status update leaves them: one condition per type, and a
 * transition time that moves only when the status changes (Kubernetes' {@code UpdatePodCondition}).
 */
public final class Conditions {

  private Conditions() {}

  /**
   * {@code condition} with a transition time: its own if it has one, else that of an old condition
   * of its type and status (the last such), else {@code now}.
   */
  public static PodCondition timed(List<PodCondition> old, PodCondition condition, Instant now) {
    if (condition.lastTransitionTime() != null) {
      return condition;
    }
    Instant since = now;
    for (PodCondition o : old) {
      if (o.type().equals(condition.type())
          && Objects.equals(o.status(), condition.status())
          && o.lastTransitionTime() != null) {
        since = o.lastTransitionTime();
      }
    }
    return new PodCondition(
        condition.type(), condition.status(), condition.reason(), condition.message(), since);
  }

  /**
   * The conditions with {@code condition}, {@linkplain #timed timed}, in place of those of its type
   * (appended when there is none). A new list.
   */
  public static List<PodCondition> replace(
      List<PodCondition> conditions, PodCondition condition, Instant now) {
    PodCondition timed = timed(conditions, condition, now);
    List<PodCondition> out = new ArrayList<>(conditions.size() + 1);
    boolean replaced = false;
    for (PodCondition c : conditions) {
      if (c.type().equals(condition.type())) {
        out.add(timed);
        replaced = true;
      } else {
        out.add(c);
      }
    }
    if (!replaced) {
      out.add(timed);
    }
    return out;
  }
}
