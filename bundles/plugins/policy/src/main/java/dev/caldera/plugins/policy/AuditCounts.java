package dev.caldera.plugins.policy;

import dev.caldera.api.host.MetricsSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How often each policy in audit mode disagreed with the enforced ones, since the process started:
 * {@code caldera_policy_audit_disagreements_total{policy}} on {@code /metrics}. Thread-safe.
 */
final class AuditCounts implements MetricsSource {

  static final String METRIC = "caldera_policy_audit_disagreements_total";

  private final Map<String, Long> counts = new TreeMap<>();

  /** A policy in audit mode: counted from 0, so that it shows before its first disagreement. */
  synchronized void audited(String policy) {
    counts.putIfAbsent(policy, 0L);
  }

  synchronized void disagreed(String policy) {
    counts.merge(policy, 1L, Long::sum);
  }

  /** Policy name → disagreements, sorted by name. */
  synchronized Map<String, Long> counts() {
    return new TreeMap<>(counts);
  }

  @Override
  public List<Family> metrics() {
    List<Sample> samples = new ArrayList<>();
    counts().forEach((policy, n) -> samples.add(new Sample(List.of("policy", policy), n)));
    return List.of(
        new Family(
            METRIC,
            "counter",
            "Decisions where a policy in audit mode disagreed with the enforced policies.",
            samples));
  }
}
