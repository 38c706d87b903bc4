package dev.caldera.runtime.bench;

import dev.caldera.api.model.Pod;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.ConfException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Runs warm-up and measured sessions against a cluster and measures them. */
public final class BenchRunner {

  /** One scheduling session: {@code snapshot -> scheduler.runSession(snapshot, conf)}. */
  @FunctionalInterface
  public interface SessionFn {
    /** Runs a session on {@code snapshot}. */
    SessionResult run(ClusterSnapshot snapshot) throws ConfException;
  }

  private final SessionFn session;

  public BenchRunner(SessionFn session) {
    this.session = session;
  }

  /**
   * Runs {@code warmup} sessions on a copy from {@code warmupCopy}, not counted, then {@code
   * sessions} measured sessions back to back on {@code target}, applying each session's decisions.
   *
   * @param progress called after each measured session (for printing as it goes)
   * @throws ConfException if the conf cannot run with the available plugins
   */
  public BenchResult run(
      Workload workload,
      SessionTarget target,
      Supplier<SessionTarget> warmupCopy,
      int sessions,
      int warmup,
      Consumer<SessionMeasurement> progress)
      throws ConfException {
    if (warmup > 0) {
      SessionTarget copy = warmupCopy.get();
      for (int i = 0; i < warmup; i++) {
        copy.apply(session.run(copy.snapshot()));
      }
    }
    long heapAfterSetup = HeapMeter.settleAndResetPeaks();

    MessageDigest digest = sha256();
    List<SessionMeasurement> measured = new ArrayList<>();
    double totalMillis = 0;
    int totalBound = 0;
    for (int i = 1; i <= sessions; i++) {
      ClusterSnapshot snapshot = target.snapshot();
      long start = System.nanoTime();
      SessionResult result = session.run(snapshot);
      double millis = (System.nanoTime() - start) / 1e6;
      target.apply(result);
      for (SessionResult.Bind b : result.binds()) {
        digest.update((b.pod() + "=" + b.node() + "\n").getBytes(StandardCharsets.UTF_8));
      }
      SessionMeasurement m = measure(i, millis, result);
      measured.add(m);
      progress.accept(m);
      totalMillis += millis;
      totalBound += m.podsBound();
    }
    long peak = HeapMeter.peakAfterGc();
    int pending = pendingPods(target.snapshot().pods());
    String bindsDigest = HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    return new BenchResult(
        workload,
        measured,
        totalMillis,
        totalBound,
        perSecond(totalBound, totalMillis),
        pending,
        heapAfterSetup,
        peak,
        bindsDigest);
  }

  static SessionMeasurement measure(int index, double millis, SessionResult result) {
    SessionResult.SessionStats stats = result.stats();
    long tasks = stats == null ? 0 : stats.tasksConsidered();
    double filtered = stats == null || tasks == 0 ? 0 : (double) stats.nodesFiltered() / tasks;
    double scored = stats == null || tasks == 0 ? 0 : (double) stats.nodesScored() / tasks;
    double reused = stats == null || tasks == 0 ? 0 : (double) stats.nodesReused() / tasks;
    int bound = result.binds().size();
    return new SessionMeasurement(
        index,
        millis,
        bound,
        result.evictions().size(),
        perSecond(bound, millis),
        tasks,
        filtered,
        scored,
        reused);
  }

  static int pendingPods(List<Pod> pods) {
    int n = 0;
    for (Pod p : pods) {
      if (p.nodeName().isEmpty() && p.phase().equals("Pending")) {
        n++;
      }
    }
    return n;
  }

  private static double perSecond(int count, double millis) {
    return millis <= 0 ? 0 : count * 1000.0 / millis;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
