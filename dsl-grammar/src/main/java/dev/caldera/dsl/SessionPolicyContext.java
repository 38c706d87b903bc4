package dev.caldera.dsl;

import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.support.resource.Resource;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link PolicyContext} over a scheduling session. Queue figures come from each queue's spec;
 * {@code allocated} is summed from the queue's jobs when the context is made and, when the policy
 * needs it, kept current by registering {@link #eventHandler()} with the session.
 */
public final class SessionPolicyContext implements PolicyContext {

  private final Session session;
  private final Map<String, Figures> figures = new HashMap<>();

  public SessionPolicyContext(Session session) {
    this.session = session;
  }

  /** A handler that adds and removes tasks from their queue's allocated as the session decides. */
  public EventHandler eventHandler() {
    return new EventHandler() {
      @Override
      public Status allocated(TaskInfo task) {
        change(task, true);
        return Status.OK;
      }

      @Override
      public void deallocated(TaskInfo task) {
        change(task, false);
      }
    };
  }

  private void change(TaskInfo task, boolean add) {
    JobInfo job = session.job(task.jobId());
    QueueInfo queue = job == null ? null : session.queue(job.queue());
    if (queue == null) {
      return;
    }
    Resource allocated = figures(queue).allocated;
    if (add) {
      allocated.add(task.resreq());
    } else {
      allocated.sub(task.resreq());
    }
  }

  @Override
  public long nowMillis() {
    return session.now().toEpochMilli();
  }

  @Override
  public JobInfo job(TaskInfo task) {
    return session.job(task.jobId());
  }

  @Override
  public QueueInfo queue(String name) {
    return session.queue(name);
  }

  @Override
  public NodeInfo node(String name) {
    return name == null || name.isEmpty() ? null : session.node(name);
  }

  @Override
  public Resource allocated(QueueInfo queue) {
    return figures(queue).allocated;
  }

  @Override
  public Resource deserved(QueueInfo queue) {
    return figures(queue).deserved;
  }

  @Override
  public Resource capability(QueueInfo queue) {
    return figures(queue).capability;
  }

  @Override
  public Resource guarantee(QueueInfo queue) {
    return figures(queue).guarantee;
  }

  @Override
  public double share(QueueInfo queue) {
    Figures f = figures(queue);
    if (f.deservedDims.length == 0) {
      return 1;
    }
    double share = 0;
    for (int d : f.deservedDims) {
      share = Math.max(share, Resource.share(f.allocated.get(d), f.deserved.get(d)));
    }
    return share;
  }

  private Figures figures(QueueInfo queue) {
    Figures f = figures.get(queue.name());
    if (f == null) {
      f = new Figures(queue.queue(), allocatedNow(queue.name()));
      figures.put(queue.name(), f);
    }
    return f;
  }

  private Resource allocatedNow(String queue) {
    Resource sum = Resource.empty();
    for (JobInfo job : session.jobs()) {
      if (job.queue().equals(queue)) {
        sum.add(job.allocated());
      }
    }
    return sum;
  }

  /** The spec figures of one queue, read once per session. */
  private static final class Figures {
    final Resource allocated;
    final Resource deserved;
    final int[] deservedDims;
    final Resource capability;
    final Resource guarantee;

    Figures(Queue spec, Resource allocated) {
      this.allocated = allocated;
      Map<String, Quantity> deservedSpec = spec.deserved() == null ? Map.of() : spec.deserved();
      this.deserved = Resource.fromList(deservedSpec);
      this.deservedDims =
          deservedSpec.keySet().stream()
              .mapToInt(ResourceNames::indexOf)
              .filter(d -> d != ResourceNames.PODS_INDEX)
              .sorted()
              .toArray();
      this.guarantee =
          spec.guarantee() == null ? Resource.empty() : Resource.fromList(spec.guarantee());
      Map<String, Quantity> cap = spec.capability() == null ? Map.of() : spec.capability();
      this.capability = Resource.fromList(cap);
      if (!cap.containsKey(ResourceNames.CPU)) {
        capability.set(ResourceNames.CPU_INDEX, Double.POSITIVE_INFINITY);
      }
      if (!cap.containsKey(ResourceNames.MEMORY)) {
        capability.set(ResourceNames.MEMORY_INDEX, Double.POSITIVE_INFINITY);
      }
    }
  }
}
