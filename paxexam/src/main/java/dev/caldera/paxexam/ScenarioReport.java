package dev.caldera.paxexam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the scheduling loop decided for a scenario, session by session, as {@code caldera simulate}
 * reports it.
 *
 * @param scenario the scenario file's name
 * @param sessions every session the loop ran for the scenario, the first first
 */
public record ScenarioReport(String scenario, List<Session> sessions) {

  public ScenarioReport {
    sessions = List.copyOf(sessions);
  }

  /**
   * One session.
   *
   * @param index 1 for the first session
   * @param binds {@code namespace/pod->node}, in decision order
   * @param evictions evicted pods ({@code namespace/pod}), in decision order
   * @param plugins plugin name → the bundle (symbolic name and version) that served it
   */
  public record Session(
      long index, List<String> binds, List<String> evictions, Map<String, String> plugins) {

    public Session {
      binds = List.copyOf(binds);
      evictions = List.copyOf(evictions);
      plugins = Map.copyOf(plugins);
    }
  }

  /** Every session's binds ({@code namespace/pod->node}), in order. */
  public List<String> binds() {
    List<String> all = new ArrayList<>();
    sessions.forEach(s -> all.addAll(s.binds()));
    return all;
  }

  /** Every session's evictions, in order. */
  public List<String> evictions() {
    List<String> all = new ArrayList<>();
    sessions.forEach(s -> all.addAll(s.evictions()));
    return all;
  }
}
