package dev.caldera.kube.internal;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes events through {@code events.k8s.io/v1} with the scheduler as reporting controller.
 *
 * <p>Sessions repeat the same event every period (a pending gang says "unschedulable" each time),
 * so, like client-go's event broadcaster, an event identical to one written in the last six minutes
 * only raises that event's {@code series.count}; the count is written at most every 30 seconds.
 */
public final class EventRecorder {

  static final Duration SERIES_WINDOW = Duration.ofMinutes(6);
  static final Duration SERIES_FLUSH = Duration.ofSeconds(30);
  private static final int MAX_TRACKED = 4096;
  private static final int MAX_NOTE = 1024;

  private static final System.Logger LOG = System.getLogger(EventRecorder.class.getName());

  /** How often the log says that events are dropped while they are. */
  static final Duration FULL_WARNING_EVERY = Duration.ofMinutes(1);

  private static final long NEVER = Long.MIN_VALUE;

  /** The reasons of the warnings sessions repeat while a gang or pod waits. */
  private static final Set<String> REPORTS = Set.of("Unschedulable", "FailedScheduling");

  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final WriteQueue writes;
  private final Counters counters;
  private final Clock clock;
  private final String controller;
  private final String instance;
  private final AtomicLong sequence = new AtomicLong();

  private final AtomicLong lastFullWarning = new AtomicLong(NEVER);
  private final WriteThrottle reports;

  /** Identical events seen recently, oldest first (evicted beyond {@link #MAX_TRACKED}). */
  private final Map<String, Series> recent =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Series> eldest) {
          return size() > MAX_TRACKED;
        }
      };

  private static final class Series {
    final String namespace;
    final String name;
    final Instant first;
    int count = 1;
    Instant lastObserved;
    Instant lastWritten;

    Series(String namespace, String name, Instant now) {
      this.namespace = namespace;
      this.name = name;
      this.first = now;
      this.lastObserved = now;
      this.lastWritten = now;
    }
  }

  public EventRecorder(
      KubernetesClient client,
      WriteQueue writes,
      WriteThrottle reports,
      Counters counters,
      Clock clock,
      String controller,
      String instance) {
    this.client = client;
    this.writes = writes;
    this.reports = reports;
    this.counters = counters;
    this.clock = clock;
    this.controller = controller;
    this.instance = instance;
  }

  /**
   * Records an event about {@code regarding} (which must name a server object with its uid).
   *
   * @param type Normal or Warning
   */
  void record(ObjectReference regarding, String type, String reason, String action, String note) {
    String object =
        String.join("\u0000", regarding.getKind(), namespaceOf(regarding), regarding.getName());
    if (!REPORTS.contains(reason)) {
      if (!"Warning".equals(type)) {
        // The object is scheduled (a pod bound, a gang ready): a warning held back is no longer
        // true.
        reports.cancel(object);
      }
      recordNow(regarding, type, reason, action, note);
      return;
    }
    // What sessions say about a waiting gang or pod at every run, with counts that change between
    // runs ("3/10 tasks ..."): held back, and only the latest written (WriteThrottle).
    reports.offer(object, false, () -> recordNow(regarding, type, reason, action, note));
  }

  private void recordNow(
      ObjectReference regarding, String type, String reason, String action, String note) {
    Instant now = clock.instant();
    String namespace = namespaceOf(regarding);
    String key =
        String.join(
            "\u0000",
            regarding.getKind(),
            namespace,
            regarding.getName(),
            regarding.getUid(),
            type,
            reason,
            note);
    Series s;
    boolean create;
    boolean flush = false;
    synchronized (recent) {
      s = recent.get(key);
      create = s == null || Duration.between(s.first, now).compareTo(SERIES_WINDOW) > 0;
      if (create) {
        s =
            new Series(
                namespace,
                // client-go names events <object>.<hex nanos>; the sequence keeps names unique
                // for several events about one object in the same instant.
                regarding.getName()
                    + "."
                    + Long.toHexString(
                        now.getEpochSecond() * 1_000_000_000L
                            + now.getNano()
                            + sequence.incrementAndGet()),
                now);
        recent.put(key, s);
      } else {
        s.count++;
        s.lastObserved = now;
        if (Duration.between(s.lastWritten, now).compareTo(SERIES_FLUSH) >= 0) {
          s.lastWritten = now;
          flush = true;
        }
      }
    }
    if (create) {
      String body =
          WriteBodies.event(
              namespace,
              s.name,
              MICRO_TIME.format(now),
              controller,
              instance,
              action,
              reason,
              type,
              note.length() > MAX_NOTE ? note.substring(0, MAX_NOTE) : note,
              regarding);
      submit(s, () -> ApiRequests.post(client, eventsPath(namespace), body));
    } else if (flush) {
      String patch =
          "{\"series\":{\"count\":"
              + s.count
              + ",\"lastObservedTime\":\""
              + MICRO_TIME.format(s.lastObserved)
              + "\"}}";
      String path = eventsPath(namespace) + "/" + s.name;
      submit(s, () -> ApiRequests.mergePatch(client, path, patch));
    }
  }

  private void submit(Series s, WriteQueue.Call call) {
    writes
        .submit("event:" + s.namespace + "/" + s.name, call)
        .whenComplete(
            (v, t) -> {
              if (t == null) {
                counters.eventsWritten.increment();
              } else {
                counters.eventsDropped.increment();
                if (t instanceof WriteQueue.FullException full) {
                  sayFull(full);
                }
              }
            });
  }

  /** Says that events are dropped, at most once per {@link #FULL_WARNING_EVERY}. */
  private void sayFull(WriteQueue.FullException full) {
    long now = System.nanoTime();
    long last = lastFullWarning.get();
    if ((last == NEVER || now - last >= FULL_WARNING_EVERY.toNanos())
        && lastFullWarning.compareAndSet(last, now)) {
      LOG.log(
          Level.WARNING,
          "events: "
              + full.getMessage()
              + " for the API server; dropping events until it catches up, as client-go does ("
              + counters.eventsDropped()
              + " dropped since the start)");
    }
  }

  private static String eventsPath(String namespace) {
    return "/apis/events.k8s.io/v1/namespaces/" + namespace + "/events";
  }

  /** Events about cluster-scoped objects (queues, nodes) live in {@code default}. */
  private static String namespaceOf(ObjectReference r) {
    return r.getNamespace() == null || r.getNamespace().isEmpty() ? "default" : r.getNamespace();
  }
}
