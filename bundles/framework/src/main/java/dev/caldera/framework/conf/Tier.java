package dev.caldera.framework.conf;

import java.util.List;

/** An ordered list of plugin entries. */
public record Tier(List<PluginOption> plugins) {
  public Tier {
    plugins = List.copyOf(plugins);
  }
}
