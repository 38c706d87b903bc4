package dev.caldera.framework.internal.loop;

import dev.caldera.framework.loop.Health;
import dev.caldera.framework.loop.LoopMetrics;
import dev.caldera.framework.loop.SessionRecord;
import java.util.Locale;
import java.util.StringJoiner;

/** The loop's log lines. */
final class Lines {

  private Lines() {}

  /**
   * One session: {@code session 12 (uid) 3.1ms binds=2 evictions=0 pipelined=0 plugins:
   * priority=caldera-plugin-priority 0.1.0.x, ...}.
   */
  static String session(SessionRecord r) {
    return session(r, true);
  }

  /**
   * One session, naming the plugins' bundles and versions only when {@code withPlugins} (the loop
   * asks for them when they changed since the last line that named them).
   */
  static String session(SessionRecord r, boolean withPlugins) {
    String line =
        String.format(
            Locale.ROOT,
            "session %d (%s) %.1fms binds=%d evictions=%d pipelined=%d",
            r.index(),
            r.uid(),
            r.millis(),
            r.binds().size(),
            r.evictions().size(),
            r.pipelined());
    if (!withPlugins) {
      return line;
    }
    StringJoiner plugins = new StringJoiner(", ");
    r.plugins().forEach((name, origin) -> plugins.add(name + "=" + origin));
    return line + " plugins: " + plugins;
  }

  /**
   * The periodic status: {@code status: sessions 42 (+5), binds 17, evictions 1, pending
   * inference=0 training=4, running}; the state is followed by the reason when sessions do not run
   * ({@code HOLDING: ...}, {@code standby: the leader is ...}, {@code waiting: ...}).
   */
  static String status(Health h, LoopMetrics m, long newSessions) {
    StringJoiner pending = new StringJoiner(" ");
    m.pendingTasks().forEach((queue, n) -> pending.add(queue + "=" + n));
    String state =
        switch (h.state()) {
          case "holding" -> "HOLDING: " + String.join("; ", h.reasons());
          case "standby", "waiting" -> h.state() + ": " + String.join("; ", h.reasons());
          default -> h.state();
        };
    return String.format(
        Locale.ROOT,
        "status: sessions %d (+%d), binds %d, evictions %d, pending %s, %s",
        m.sessions(),
        newSessions,
        m.binds(),
        m.evictions(),
        pending.length() == 0 ? "-" : pending.toString(),
        state);
  }
}
