package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.EvictionRule;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which functions permitted each victim of the current evictor (the plugins of the deciding tier
 * that did not abstain), so that an eviction can name its rule: the {@link EvictionRule} of a
 * function that has one (a policy's {@code tidal.policy:18 (...)}), else its plugin. Kept for one
 * evictor at a time, as actions select and evict for one task before the next.
 */
final class EvictionDeciders {

  /**
   * Why one eviction was allowed.
   *
   * @param rule the deciding rules ({@code tidal.policy:18 (any may reclaim training)}), else
   *     {@code plugin NAME} for the plugins that decided; empty when no victim function decided
   * @param plugins the plugins of the deciding tier that permitted it
   */
  record Decided(String rule, List<String> plugins) {
    static final Decided NONE = new Decided("", List.of());
  }

  private static final String POLICY_PLUGIN = "policy";

  private String evictor;
  private final Map<String, List<Registered<?>>> byVictim = new HashMap<>();

  /** The deciding tier's permitting functions chose {@code victims} for {@code evictor}. */
  void selected(TaskInfo evictor, List<TaskInfo> victims, List<Registered<?>> deciders) {
    if (!evictor.uid().equals(this.evictor)) {
      byVictim.clear();
      this.evictor = evictor.uid();
    }
    for (TaskInfo v : victims) {
      byVictim.put(v.uid(), deciders);
    }
  }

  /** Why {@code victim} may be evicted for {@code evictor}, asked as it is evicted. */
  Decided decided(TaskInfo evictor, TaskInfo victim) {
    if (!evictor.uid().equals(this.evictor)) {
      return Decided.NONE;
    }
    List<Registered<?>> deciders = byVictim.get(victim.uid());
    if (deciders == null || deciders.isEmpty()) {
      return Decided.NONE;
    }
    List<String> plugins = new ArrayList<>();
    List<String> rules = new ArrayList<>();
    for (Registered<?> d : deciders) {
      if (!plugins.contains(d.plugin())) {
        plugins.add(d.plugin());
      }
      if (d.fn() instanceof EvictionRule r) {
        String rule = r.rule(evictor, victim);
        if (rule != null && !rule.isBlank()) {
          // The policy plugin's rules are the team's own and come first; another plugin's
          // (capacity-card's built-in tidal policy) are named with it.
          if (d.plugin().equals(POLICY_PLUGIN)) {
            rules.add(0, rule);
          } else {
            rules.add(d.plugin() + "'s " + rule);
          }
        }
      }
    }
    String rule =
        !rules.isEmpty()
            ? String.join("; ", rules)
            : (plugins.size() == 1 ? "plugin " : "plugins ") + String.join(", ", plugins);
    return new Decided(rule, List.copyOf(plugins));
  }
}
