package dev.caldera.sim;

import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.ConfLint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs a scenario: its sessions one after another on a fresh {@link EmbeddedCluster}, each
 * session's decisions applied before the next one opens.
 */
public final class ScenarioRunner {

  private final PluginRegistry registry;

  public ScenarioRunner(PluginRegistry registry) {
    this.registry = registry;
  }

  /**
   * Runs every session of {@code scenario}. The report's mismatches are empty; see {@link
   * ExpectationChecker}.
   *
   * @throws ScenarioException when the conf names an action or plugin that is not available, or a
   *     plugin rejects its arguments
   */
  public ScenarioReport run(Scenario scenario) throws ScenarioException {
    String source = scenario.file().toString();
    List<String> missing = scenario.conf().missing(registry);
    if (!missing.isEmpty()) {
      throw new ScenarioException(source + ": conf: " + String.join("; ", missing));
    }
    EmbeddedCluster cluster = scenario.cluster();
    Scheduler scheduler = Scheduler.carryingState(registry);
    List<SessionReport> sessions = new ArrayList<>();
    // Said once, as the loop says it at load: the first session's report carries them.
    List<SessionResult.Event> lint = new ArrayList<>();
    for (String warning : ConfLint.warnings(scenario.conf())) {
      lint.add(new SessionResult.Event("Conf", "conf", "Warning", "ConfLint", warning));
    }
    for (int i = 1; i <= scenario.sessions(); i++) {
      for (TimelineStep step : scenario.timeline()) {
        if (step.session() == i) {
          step.deleted().forEach(cluster::delete);
          for (PodGroup pg : step.podGroups()) {
            cluster.submit(pg, List.of());
          }
          cluster.submit(step.pods());
        }
      }
      ClusterSnapshot snapshot = cluster.snapshot(scenario.now(i));
      Map<String, String> before = phases(cluster.state());
      long start = System.nanoTime();
      SessionResult result;
      try {
        result = scheduler.runSession(snapshot, scenario.conf());
      } catch (ConfException e) {
        throw new ScenarioException(source + ": conf: " + String.join("; ", e.problems()), e);
      }
      double millis = (System.nanoTime() - start) / 1e6;
      cluster.apply(result);
      Map<String, String> changes = new LinkedHashMap<>();
      phases(cluster.state())
          .forEach(
              (key, phase) -> {
                if (!Objects.equals(before.get(key), phase)) {
                  changes.put(key, phase);
                }
              });
      sessions.add(
          new SessionReport(
              i,
              millis,
              List.copyOf(result.binds()),
              List.copyOf(result.evictions()),
              List.copyOf(result.pipelined()),
              Collections.unmodifiableMap(changes),
              events(i == 1 ? lint : List.of(), result),
              result.stats(),
              result.waiting()));
    }
    ClusterState end = cluster.state();
    Map<String, Map<String, Quantity>> allocated = new LinkedHashMap<>();
    for (Queue q : end.queues()) {
      allocated.put(q.name(), q.allocated());
    }
    return new ScenarioReport(
        scenario.name(),
        scenario.file(),
        List.copyOf(sessions),
        phases(end),
        Collections.unmodifiableMap(allocated),
        List.of());
  }

  private static List<SessionResult.Event> events(
      List<SessionResult.Event> first, SessionResult result) {
    List<SessionResult.Event> out = new ArrayList<>(first);
    if (result.events() != null) {
      out.addAll(result.events());
    }
    return List.copyOf(out);
  }

  private static Map<String, String> phases(ClusterState state) {
    Map<String, String> out = new LinkedHashMap<>();
    for (PodGroup pg : state.podGroups()) {
      out.put(pg.key(), pg.phase());
    }
    return Collections.unmodifiableMap(out);
  }
}
