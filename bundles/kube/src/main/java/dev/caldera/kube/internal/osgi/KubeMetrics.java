package dev.caldera.kube.internal.osgi;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.kube.KubeCounters;
import dev.caldera.kube.LeaderElection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The kube bundle's figures on {@code /metrics}: what the API server accepted and refused. */
final class KubeMetrics implements MetricsSource {

  private final KubeCounters counters;
  private final Supplier<LeaderElection> election;
  private final boolean leaderElect;

  /**
   * @param election the running election, or null before it started
   * @param leaderElect whether this replica elects a leader (without, it always leads)
   */
  KubeMetrics(KubeCounters counters, Supplier<LeaderElection> election, boolean leaderElect) {
    this.counters = counters;
    this.election = election;
    this.leaderElect = leaderElect;
  }

  @Override
  public List<Family> metrics() {
    KubeCounters c = counters;
    List<Family> out = new ArrayList<>();
    out.add(
        new Family(
            "caldera_kube_binds_total",
            "counter",
            "Binds by outcome: accepted by the API server, failed for good, refused by the writer"
                + " (the node would exceed its allocatable), dropped (no longer the leader).",
            List.of(
                new Sample(List.of("result", "accepted"), c.bindsSucceeded()),
                new Sample(List.of("result", "failed"), c.bindsFailed()),
                new Sample(List.of("result", "refused"), c.bindsRefused()),
                new Sample(List.of("result", "dropped"), c.bindsDropped()))));
    out.add(
        new Family(
            "caldera_kube_evictions_total",
            "counter",
            "Evictions by outcome.",
            List.of(
                new Sample(List.of("result", "accepted"), c.evictionsSucceeded()),
                new Sample(List.of("result", "failed"), c.evictionsFailed()))));
    out.add(
        new Family(
            "caldera_kube_status_writes_total",
            "counter",
            "Pod condition, pod group and queue status writes by outcome.",
            List.of(
                new Sample(List.of("result", "accepted"), c.statusWrites()),
                new Sample(List.of("result", "failed"), c.statusWriteFailures()))));
    out.add(
        new Family(
            "caldera_kube_events_total",
            "counter",
            "Kubernetes events by outcome.",
            List.of(
                new Sample(List.of("result", "written"), c.eventsWritten()),
                new Sample(List.of("result", "dropped"), c.eventsDropped()))));
    out.add(
        Family.of(
            "caldera_kube_write_retries_total",
            "counter",
            "Write attempts repeated after a transient API error (5xx, 429, no answer).",
            c.retries()));
    out.add(
        Family.of(
            "caldera_kube_watch_errors_total",
            "counter",
            "List or watch failures of the informers; each is retried (watch reconnects).",
            c.watchErrors()));
    out.add(
        Family.of(
            "caldera_kube_writes_in_flight",
            "gauge",
            "API writes queued or running now.",
            c.writesInFlight()));
    LeaderElection e = election.get();
    boolean leading = leaderElect ? e != null && e.isLeader() : true;
    out.add(
        Family.of(
            "caldera_leader",
            "gauge",
            "1 while this replica holds the lease and schedules (always 1 without leader election).",
            leading ? 1 : 0));
    out.add(
        Family.of(
            "caldera_leader_election_errors_total",
            "counter",
            "Failed attempts to read, take or renew the lease (RBAC denials, API errors).",
            e == null ? 0 : e.errors()));
    return out;
  }
}
