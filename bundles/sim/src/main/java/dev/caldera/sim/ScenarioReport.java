package dev.caldera.sim;

import dev.caldera.api.resource.Quantity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a scenario run.
 *
 * @param podGroupPhases pod group key → phase after the run
 * @param queueAllocated queue name → {@code status.allocated} after the run
 * @param mismatches empty unless the run was checked against {@code expect:}
 */
public record ScenarioReport(
    String scenario,
    Path file,
    List<SessionReport> sessions,
    Map<String, String> podGroupPhases,
    Map<String, Map<String, Quantity>> queueAllocated,
    List<String> mismatches) {

  /** This report with {@code mismatches} from a check. */
  public ScenarioReport withMismatches(List<String> mismatches) {
    return new ScenarioReport(
        scenario, file, sessions, podGroupPhases, queueAllocated, List.copyOf(mismatches));
  }
}
