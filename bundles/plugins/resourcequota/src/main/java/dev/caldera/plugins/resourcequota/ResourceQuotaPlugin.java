package dev.caldera.plugins.resourcequota;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Volcano's {@code resourcequota} plugin: the enqueue action refuses a job whose {@code
 * minResources} would take its namespace over a ResourceQuota's {@code status.hard}, counting
 * {@code status.used} and the minimums of jobs admitted earlier in this session. Resource names
 * match exactly, as in Kubernetes' quota helpers: {@code cpu} is not {@code requests.cpu}.
 */
public final class ResourceQuotaPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "resourcequota";

  private Session session;

  /** namespace → its quotas, by name. */
  private final Map<String, List<ResourceQuota>> quotas = new HashMap<>();

  /** namespace → Σ minResources of the jobs admitted this session. */
  private final Map<String, Map<String, BigDecimal>> pending = new HashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    for (ResourceQuota q : session.cluster().resourceQuotas()) {
      quotas.computeIfAbsent(q.metadata().namespace(), k -> new ArrayList<>()).add(q);
    }
    for (List<ResourceQuota> list : quotas.values()) {
      list.sort(Comparator.comparing(q -> q.metadata().name()));
    }
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, this::enqueueable);
    extensions.add(ExtensionPoint.JOB_ENQUEUED, this::enqueued);
  }

  Vote enqueueable(JobInfo job) {
    Map<String, Quantity> min = job.podGroup().minResources();
    if (min == null) {
      return Vote.PERMIT;
    }
    List<ResourceQuota> nsQuotas = quotas.get(job.namespace());
    if (nsQuotas == null) {
      return Vote.PERMIT;
    }
    Map<String, BigDecimal> admitted = pending.getOrDefault(job.namespace(), Map.of());
    for (ResourceQuota quota : nsQuotas) {
      List<String> exceeded = new ArrayList<>(0);
      // names in both the minimum and hard, in name order
      for (String name : new TreeMap<>(min).keySet()) {
        Quantity hard = quota.hard().get(name);
        if (hard == null) {
          continue;
        }
        BigDecimal newUsage =
            min.get(name).amount().add(admitted.getOrDefault(name, BigDecimal.ZERO));
        Quantity used = quota.used().get(name);
        if (used != null) {
          newUsage = newUsage.add(used.amount());
        }
        if (newUsage.compareTo(hard.amount()) > 0) {
          exceeded.add(name);
        }
      }
      if (!exceeded.isEmpty()) {
        String message =
            "resource quota insufficient, requested: "
                + format(min, exceeded)
                + ", used: "
                + format(quota.used(), exceeded)
                + ", limited: "
                + format(quota.hard(), exceeded);
        session.recordEvent("PodGroup", job.uid(), "Normal", "Unschedulable", message);
        List<Blocker.Figure> figures = new ArrayList<>(exceeded.size());
        for (String name : exceeded) {
          Quantity used = quota.used().get(name);
          BigDecimal held =
              (used == null ? BigDecimal.ZERO : used.amount())
                  .add(admitted.getOrDefault(name, BigDecimal.ZERO));
          figures.add(
              new Blocker.Figure(
                  name,
                  min.get(name).amount().doubleValue(),
                  held.doubleValue(),
                  quota.hard().get(name).amount().doubleValue(),
                  "ResourceQuota " + job.namespace() + "/" + quota.metadata().name() + " hard"));
        }
        session.reportBlocker(
            job,
            Blocker.of(
                Blocker.Stage.ENQUEUE,
                "ResourceQuota " + job.namespace() + "/" + quota.metadata().name() + ": " + message,
                figures));
        return Vote.REJECT;
      }
    }
    return Vote.PERMIT;
  }

  void enqueued(JobInfo job) {
    Map<String, Quantity> min = job.podGroup().minResources();
    if (min == null) {
      return;
    }
    Map<String, BigDecimal> sum = pending.computeIfAbsent(job.namespace(), k -> new HashMap<>());
    for (Map.Entry<String, Quantity> e : min.entrySet()) {
      sum.merge(e.getKey(), e.getValue().amount(), BigDecimal::add);
    }
  }

  /**
   * The entries of {@code list} named in {@code names} (which are sorted), as Kubernetes' quota
   * messages print them: {@code cpu=4,memory=1Gi}.
   */
  static String format(Map<String, Quantity> list, List<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String name : names) {
      Quantity q = list.get(name);
      if (q == null) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(name).append('=').append(q);
    }
    return sb.toString();
  }
}
