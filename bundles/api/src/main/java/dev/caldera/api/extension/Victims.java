package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;

/**
 * A plugin's answer to "which of these candidates may be evicted": the victims and a vote. An
 * abstaining plugin takes no part; an empty list with PERMIT or any list with REJECT ends its tier
 * without a result (Volcano's rule: an empty answer is not a veto).
 */
public record Victims(List<TaskInfo> tasks, Vote vote) {

  private static final Victims ABSTAIN = new Victims(List.of(), Vote.ABSTAIN);

  public Victims {
    tasks = List.copyOf(tasks);
  }

  /** Permits eviction of {@code tasks}. */
  public static Victims permit(List<TaskInfo> tasks) {
    return new Victims(tasks, Vote.PERMIT);
  }

  /** Takes no part. */
  public static Victims abstain() {
    return ABSTAIN;
  }

  /** Rejects every candidate. */
  public static Victims reject() {
    return new Victims(List.of(), Vote.REJECT);
  }
}
