package dev.caldera.framework.conf;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Combinations of conf entries that are valid but silently defeat a promise the conf seems to make.
 * Each warning names the entries (as {@code tiers[i].plugins[j] (name)}) and says what to change.
 * Said once when a conf is loaded (the loop's {@code ConfLint} event, {@code caldera simulate}'s
 * output), never per session.
 */
public final class ConfLint {

  /** The plugins whose ReclaimableFn asks whether a victim's queue may lose resources. */
  private static final Set<String> QUEUE_SHARE_PLUGINS =
      Set.of("capacity", "proportion", "capacity-card");

  /** The plugins that return reclaim victims without looking at queue shares. */
  private static final Set<String> VICTIM_PLUGINS =
      Set.of("gang", "conformance", "drf", "pdb", "cdp", "extender", "policy");

  private ConfLint() {}

  /** The warnings for {@code conf}, in tier order; empty when nothing defeats a promise. */
  public static List<String> warnings(SchedulerConf conf) {
    List<String> out = new ArrayList<>();
    if (conf.actions().contains("reclaim")) {
      victimsBeforeQueueShares(conf, out);
    }
    policyBesideTidal(conf, out);
    return out;
  }

  /**
   * Victim selection keeps the first tier with a non-empty result: a tier of victim plugins with
   * reclaim enabled above the tier of capacity (or proportion, capacity-card) picks reclaim victims
   * without asking whether their queue may lose them (seed 003: a 60-CPU guarantee reclaimed down
   * to 50).
   */
  private static void victimsBeforeQueueShares(SchedulerConf conf, List<String> out) {
    List<Tier> tiers = conf.tiers();
    int shareTier = -1;
    String shareEntry = null;
    for (int t = 0; t < tiers.size() && shareTier < 0; t++) {
      List<PluginOption> plugins = tiers.get(t).plugins();
      for (int p = 0; p < plugins.size(); p++) {
        PluginOption o = plugins.get(p);
        if (QUEUE_SHARE_PLUGINS.contains(o.name()) && o.isEnabled(Flag.RECLAIMABLE)) {
          shareTier = t;
          shareEntry = entry(t, p, o);
          break;
        }
      }
    }
    if (shareTier <= 0) {
      return;
    }
    List<String> early = new ArrayList<>();
    for (int t = 0; t < shareTier; t++) {
      List<PluginOption> plugins = tiers.get(t).plugins();
      for (int p = 0; p < plugins.size(); p++) {
        PluginOption o = plugins.get(p);
        if (VICTIM_PLUGINS.contains(o.name()) && o.isEnabled(Flag.RECLAIMABLE)) {
          early.add(entry(t, p, o));
        }
      }
    }
    if (early.isEmpty()) {
      return;
    }
    out.add(
        String.join(", ", early)
            + (early.size() == 1 ? " chooses" : " choose")
            + " reclaim victims in a tier above "
            + shareEntry
            + ": the first tier that returns victims decides, so victims are taken without asking "
            + shareEntry.substring(shareEntry.indexOf('(') + 1, shareEntry.length() - 1)
            + " whether their queue may lose them (a queue can be reclaimed below its guarantee);"
            + " set enableReclaimable: false on "
            + (early.size() == 1 ? "it" : "them")
            + " or move them into the same tier");
  }

  /**
   * capacity-card without {@code reclaimPolicy} always applies its built-in tidal policy; a {@code
   * policy} plugin with reclaim enabled in the same tier is intersected with it, so the team's
   * rules can never allow more than tidal does.
   */
  private static void policyBesideTidal(SchedulerConf conf, List<String> out) {
    List<Tier> tiers = conf.tiers();
    for (int t = 0; t < tiers.size(); t++) {
      List<PluginOption> plugins = tiers.get(t).plugins();
      String card = null;
      String policy = null;
      for (int p = 0; p < plugins.size(); p++) {
        PluginOption o = plugins.get(p);
        if (!o.isEnabled(Flag.RECLAIMABLE)) {
          continue;
        }
        if (o.name().equals("capacity-card") && !o.arguments().containsKey("reclaimPolicy")) {
          card = card == null ? entry(t, p, o) : card;
        } else if (o.name().equals("policy")) {
          policy = policy == null ? entry(t, p, o) : policy;
        }
      }
      if (card != null && policy != null) {
        out.add(
            policy
                + " has reclaim enabled in the tier of "
                + card
                + ", whose built-in tidal policy is in force (no reclaimPolicy): the two are"
                + " intersected, so the reclaim rules of "
                + policy
                + " can never allow more than tidal does; give capacity-card the policy"
                + " (reclaimPolicy: NAME) or set enableReclaimable: false on one of them");
      }
    }
  }

  private static String entry(int tier, int plugin, PluginOption o) {
    return "tiers[" + tier + "].plugins[" + plugin + "] (" + o.name() + ")";
  }
}
