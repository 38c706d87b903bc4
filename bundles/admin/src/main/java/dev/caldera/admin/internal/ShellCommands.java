package dev.caldera.admin.internal;

import dev.caldera.framework.loop.ConfStatus;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The text of the Gogo commands {@code caldera:plugins}, {@code conf}, {@code policies}, {@code
 * sessions}.
 */
public final class ShellCommands {

  private final AdminBackend backend;

  public ShellCommands(AdminBackend backend) {
    this.backend = backend;
  }

  /** One line per plugin: name, bundle, version, state, sessions served. */
  public String plugins() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%-24s %-40s %-28s %-9s %s%n",
            "PLUGIN",
            "BUNDLE",
            "VERSION",
            "STATE",
            "SESSIONS"));
    for (PluginInfo p : backend.plugins()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%-24s %-40s %-28s %-9s %d%s%n",
              p.name(),
              p.bundle() == null ? "-" : p.bundle(),
              p.version() == null ? "-" : p.version(),
              p.state(),
              p.sessionsServed(),
              p.inConf() ? "" : "  (not in the conf)"));
    }
    return sb.toString();
  }

  /** The conf in force, and why the file's current text was refused if it was. */
  public String conf() {
    Optional<SchedulerMonitor> m = backend.monitor();
    if (m.isEmpty()) {
      return "the scheduling loop is not running\n";
    }
    ConfStatus c = m.get().conf();
    StringBuilder sb = new StringBuilder();
    sb.append("# ").append(c.path());
    if (c.loadedAt() != null) {
      sb.append(", in force since ").append(c.loadedAt());
    }
    sb.append('\n');
    if (c.lastError() != null) {
      sb.append("# refused: ").append(c.lastError()).append('\n');
    }
    sb.append(c.text() == null ? "# no valid conf\n" : c.text());
    return sb.toString();
  }

  /** Each policy in force, with its text. */
  public String policies() {
    Optional<SchedulerMonitor> m = backend.monitor();
    if (m.isEmpty()) {
      return "the scheduling loop is not running\n";
    }
    Map<String, String> p = m.get().policies();
    if (p.isEmpty()) {
      return "no policies\n";
    }
    StringBuilder sb = new StringBuilder();
    p.forEach(
        (name, text) ->
            sb.append("# ")
                .append(name)
                .append('\n')
                .append(text)
                .append(text.endsWith("\n") ? "" : "\n"));
    return sb.toString();
  }

  /** The last {@code n} sessions, one line each, with the plugin bundles they used. */
  public String sessions(int n) {
    Optional<SchedulerMonitor> m = backend.monitor();
    if (m.isEmpty()) {
      return "the scheduling loop is not running\n";
    }
    List<SessionRecord> sessions = m.get().sessions(n);
    if (sessions.isEmpty()) {
      return "no sessions yet (" + m.get().health().state() + ")\n";
    }
    StringBuilder sb = new StringBuilder();
    for (SessionRecord s : sessions) {
      sb.append(
          String.format(
              Locale.ROOT,
              "#%d %s %.1fms binds=%d evictions=%d pipelined=%d plugins=%s%n",
              s.index(),
              s.started(),
              s.millis(),
              s.binds().size(),
              s.evictions().size(),
              s.pipelined(),
              s.plugins()));
    }
    return sb.toString();
  }
}
