package dev.caldera.load;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One run: the nodes, namespace and queue, then either a paced stream of pods (the scheduler
 * already running, or launched and given {@code --settle} to start first) or a backlog of pods with
 * the scheduler launched {@code --settle} after it; then up to {@code --drain} for the pods still
 * unbound, and the measurements. Cleaning up is the caller's ({@link #cleanup}), also when {@link
 * #run} fails; {@link #stop} (from the shutdown hook) makes a running {@link #run} stop sending and
 * waiting.
 */
final class LoadRun {

  /** How long the pod watch may take for its first list. */
  private static final Duration WATCH_SYNC = Duration.ofSeconds(60);

  /** How often the wait for binds looks. */
  private static final long POLL_NANOS = 10_000_000L;

  private final LoadSettings settings;
  private final KubernetesClient client;
  private final MeasuredScheduler scheduler;
  private final PrintStream progress;
  private final LoadCluster cluster;
  private final PodTimes times;
  private volatile boolean stopped;

  /**
   * @param runId the run's id: its namespace is {@code caldera-load-<runId>}, and its nodes, pods
   *     and pod groups carry the label {@code caldera-load=<runId>}
   * @param progress where progress lines go (stderr: stdout has only the report)
   */
  LoadRun(
      LoadSettings settings,
      KubernetesClient client,
      MeasuredScheduler scheduler,
      PrintStream progress,
      String runId) {
    this.settings = settings;
    this.client = client;
    this.scheduler = scheduler;
    this.progress = progress;
    this.cluster = new LoadCluster(client, runId);
    this.times = new PodTimes(settings.workload());
  }

  LoadCluster cluster() {
    return cluster;
  }

  PodTimes times() {
    return times;
  }

  /** Makes {@link #run} stop sending and waiting as soon as it can; it then fails. */
  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  /** Deletes what the run created; see {@link LoadCluster#cleanup}. */
  java.util.List<String> cleanup() {
    return cluster.cleanup();
  }

  /** Sets up, submits, waits and measures. Leaves the scheduler running and everything in place. */
  LoadReport run() throws LoadException, InterruptedException {
    Workload w = times.workload();
    cluster.checkReachable();
    if (settings.gangs()) {
      cluster.checkVolcanoCrds();
    }
    cluster.createNamespace();
    Map<String, String> selector;
    String nodes;
    if (settings.createsNodes()) {
      String overfilled = settings.overfilled(w.pods());
      if (overfilled != null) {
        say("warning: " + overfilled);
      }
      say("creating " + settings.nodes() + " fake nodes");
      cluster.createNodes(settings.nodes(), settings.workers());
      selector = Map.of(LoadObjects.RUN_LABEL, cluster.runId());
      nodes =
          cluster.createdNodes().size()
              + " fake nodes labelled "
              + LoadObjects.RUN_LABEL
              + "="
              + cluster.runId();
    } else {
      selector = settings.nodeSelector();
      String label = selectorText(selector);
      int count = cluster.countNodes(selector);
      if (count == 0) {
        throw new LoadException("--node-selector " + label + ": no node has this label");
      }
      nodes = count + " nodes labelled " + label;
    }
    if (settings.gangs()) {
      cluster.ensureQueue(settings.queue());
    }
    checkStopped();
    Submitter.Creator creator =
        new Submitter.Creator() {
          @Override
          public void createGroup(int unit) {
            cluster.createPodGroup(
                w.groupName(unit), settings.queue(), w.gangSize(), settings.pod());
          }

          @Override
          public void createPod(int pod) {
            cluster.createPod(
                w.podName(pod),
                w.gangs() ? w.groupName(w.unitOf(pod)) : null,
                settings.schedulerName(),
                selector,
                settings.pod());
          }
        };
    try (BindWatch watch = BindWatch.start(client, cluster.namespace(), times, WATCH_SYNC)) {
      return settings.backlogMode() ? backlog(creator, watch, nodes) : stream(creator, nodes);
    }
  }

  private LoadReport stream(Submitter.Creator creator, String nodes)
      throws LoadException, InterruptedException {
    if (scheduler.launched()) {
      scheduler.start();
      say(
          "scheduler launched (output: "
              + scheduler.log()
              + "); the stream starts in "
              + Durations.format(settings.settle()));
      sleep(settings.settle());
      checkStopped();
    }
    Optional<Duration> cpuBefore = scheduler.cpuTime();
    long start = System.nanoTime();
    say(
        "streaming "
            + podsText()
            + " at "
            + LoadReport.number(settings.rate())
            + " pods/s for "
            + Durations.format(settings.duration()));
    new Submitter(settings.workers())
        .run(times, settings.schedule(), start, creator, this::stopped);
    checkStopped();
    say(
        "stream done: "
            + times.createdCount()
            + " pods created; waiting up to "
            + Durations.format(settings.drain())
            + " for the unbound");
    awaitBound(System.nanoTime() + settings.drain().toNanos());
    return measure("stream", "the start of the stream", start, cpuBefore, nodes);
  }

  private LoadReport backlog(Submitter.Creator creator, BindWatch watch, String nodes)
      throws LoadException, InterruptedException {
    long createStart = System.nanoTime();
    say("creating the backlog: " + podsText());
    new Submitter(settings.workers()).run(times, null, createStart, creator, this::stopped);
    checkStopped();
    // The watch has every pod before the settling starts, so nothing of the creation is left
    // to do when the scheduler comes.
    long seenBy = System.nanoTime() + WATCH_SYNC.toNanos();
    while (watch.pods() < times.createdCount() && System.nanoTime() < seenBy && !stopped) {
      Thread.sleep(POLL_NANOS / 1_000_000);
    }
    say(
        "backlog created: "
            + times.createdCount()
            + " pods in "
            + LoadReport.fixed((System.nanoTime() - createStart) / 1e9, 2)
            + " s; launching the scheduler in "
            + Durations.format(settings.settle()));
    sleep(settings.settle());
    checkStopped();
    long launch = System.nanoTime();
    scheduler.start();
    say("scheduler launched (output: " + scheduler.log() + ")");
    awaitBound(launch + settings.drain().toNanos());
    return measure("backlog", "the launch", launch, Optional.of(Duration.ZERO), nodes);
  }

  /** Waits until every created pod is bound, the deadline passes, or the scheduler ended. */
  private void awaitBound(long deadline) throws LoadException {
    while (!times.allCreatedBound()
        && System.nanoTime() < deadline
        && scheduler.ended() == null
        && !stopped) {
      Submitter.parkUntil(System.nanoTime() + POLL_NANOS, this::stopped);
    }
    checkStopped();
  }

  private LoadReport measure(
      String mode, String windowStart, long start, Optional<Duration> cpuBefore, String nodes) {
    Optional<Duration> cpuAfter = scheduler.cpuTime();
    long cpuWindow = System.nanoTime() - start;
    Duration cpu =
        cpuBefore.isPresent() && cpuAfter.isPresent()
            ? cpuAfter.get().minus(cpuBefore.get())
            : null;
    return Measurement.report(
        new Measurement.Facts(
            mode,
            settings.describe(),
            client.getMasterUrl().toString(),
            cluster.namespace(),
            nodes,
            scheduler.describe(),
            windowStart,
            start,
            settings.backlogMode() ? null : settings.rate(),
            settings.drain(),
            cpu,
            cpuWindow,
            scheduler.ended(),
            scheduler.log() == null ? null : scheduler.log().toString()),
        times);
  }

  /** "100 pods (20 gangs of 5)" or "40 plain pods". */
  private String podsText() {
    Workload w = times.workload();
    return w.gangs() ? w.pods() + " pods (" + w.describe() + ")" : w.describe();
  }

  private void sleep(Duration d) {
    Submitter.parkUntil(System.nanoTime() + d.toNanos(), this::stopped);
  }

  private void checkStopped() throws LoadException {
    if (stopped) {
      throw new LoadException("stopped before the end of the run");
    }
  }

  private void say(String line) {
    progress.println("caldera load: " + line);
  }

  static String selectorText(Map<String, String> selector) {
    return selector.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .sorted()
        .reduce((a, b) -> a + "," + b)
        .orElse("");
  }
}
