package dev.caldera.plugins.sla;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.GoDuration;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.JobInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Volcano's {@code sla} plugin: a job has a waiting time, from its pod group's annotation or else
 * the {@code sla-waiting-time} argument. Jobs with a deadline (creation + waiting time) are ordered
 * first, earliest deadline first; once a job has waited past its deadline, the plugin permits its
 * enqueue and its pipelining, otherwise it abstains.
 */
public final class SlaPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "sla";

  /** Pod group annotations holding a job's own waiting time, in the order they are read. */
  static final String[] ANNOTATIONS = {"volcano.sh/sla-waiting-time", "sla-waiting-time"};

  static final String INVALID_REASON = "InvalidSlaWaitingTime";

  /** Marks a job without a deadline in the cache. */
  private static final Instant NONE = Instant.MIN;

  private final SlaArguments arguments;
  private final Map<String, Instant> deadlines = new HashMap<>();
  private Session session;

  public SlaPlugin(SlaArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    extensions.add(ExtensionPoint.JOB_ORDER, this::compare);
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, this::vote);
    extensions.add(ExtensionPoint.JOB_PIPELINED, this::vote);
  }

  /** Jobs with a deadline first, then the earlier deadline. */
  int compare(JobInfo l, JobInfo r) {
    Instant ld = deadline(l);
    Instant rd = deadline(r);
    if (ld == null) {
      return rd == null ? 0 : 1;
    }
    if (rd == null) {
      return -1;
    }
    return Integer.signum(ld.compareTo(rd));
  }

  /** Permit once the job has waited at least its waiting time; abstain before or without one. */
  Vote vote(JobInfo job) {
    Instant deadline = deadline(job);
    if (deadline == null || session.now().isBefore(deadline)) {
      return Vote.ABSTAIN;
    }
    return Vote.PERMIT;
  }

  /** Creation time + waiting time, or null when the job has no waiting time. */
  private Instant deadline(JobInfo job) {
    Instant cached = deadlines.get(job.uid());
    if (cached == null) {
      Duration waiting = waitingTime(job);
      cached = waiting == null ? NONE : job.creationTimestamp().plus(waiting);
      deadlines.put(job.uid(), cached);
    }
    return cached == NONE ? null : cached;
  }

  /**
   * The job's annotation, else the argument. As in Volcano, an invalid or non-positive annotation
   * counts as absent; it is reported on the pod group.
   */
  private Duration waitingTime(JobInfo job) {
    Map<String, String> annotations = job.podGroup().metadata().annotations();
    for (String key : ANNOTATIONS) {
      String text = annotations.get(key);
      if (text == null) {
        continue;
      }
      String problem;
      try {
        Duration d = GoDuration.parse(text);
        if (d.isNegative() || d.isZero()) {
          problem = "it is not positive";
        } else {
          return d;
        }
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
      }
      session.recordEvent(
          "PodGroup",
          job.uid(),
          "Warning",
          INVALID_REASON,
          "invalid "
              + key
              + " \""
              + text
              + "\" ("
              + problem
              + "); the job has "
              + (arguments.waitingTime() == null
                  ? "no waiting time"
                  : "the plugin's waiting time " + text(arguments.waitingTime())));
      break;
    }
    return arguments.waitingTime();
  }

  private static String text(Duration d) {
    return d.toString().substring(2).toLowerCase(Locale.ROOT);
  }
}
