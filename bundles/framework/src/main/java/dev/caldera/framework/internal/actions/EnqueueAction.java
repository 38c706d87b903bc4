package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.framework.loop.QueueLifecycle;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * Volcano's {@code enqueue}: admits Pending jobs (Pending → Inqueue). Queues take turns in queue
 * order, each turn tries the queue's first pending job once; a job without {@code minResources} is
 * admitted unconditionally, any other only if the enqueueable votes allow it.
 *
 * <p>A queue that is not Open (Closing, Closed) admits no pod group at all. Volcano's enqueue
 * admits a pod group without {@code minResources} even there, because Volcano's admission webhook
 * has already refused to create pod groups in such a queue; Caldera has no webhook, so enqueue is
 * where a new pod group of a closed queue stops (the waiting line says why: {@code QueueClosed}).
 * Nor does a queue under a Closing or Closed parent ({@link QueueLifecycle#closedAncestor}).
 */
@Component(service = Action.class)
public final class EnqueueAction implements Action {

  public static final String NAME = "enqueue";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(ActionSession session) {
    PriorityQueue<QueueInfo> queues = new PriorityQueue<>(session::compareQueues);
    Set<String> seenQueues = new LinkedHashSet<>();
    Map<String, PriorityQueue<JobInfo>> pendingByQueue = new HashMap<>();
    for (JobInfo job : session.jobs()) {
      QueueInfo queue = session.queue(job.queue());
      if (queue == null) {
        continue;
      }
      if (seenQueues.add(queue.name())) {
        queues.add(queue);
      }
      if (job.isPending()
          && queue.isOpen()
          && QueueLifecycle.closedAncestor(queue, session::queue) == null) {
        pendingByQueue
            .computeIfAbsent(queue.name(), q -> new PriorityQueue<>(session::compareJobs))
            .add(job);
      }
    }

    while (!queues.isEmpty()) {
      QueueInfo queue = queues.poll();
      PriorityQueue<JobInfo> jobs = pendingByQueue.get(queue.name());
      if (jobs == null || jobs.isEmpty()) {
        continue;
      }
      JobInfo job = jobs.poll();
      if (job.minResources() == null || session.jobEnqueueable(job)) {
        session.jobEnqueued(job);
        session.setJobPhase(job, PodGroupPhase.Inqueue);
      }
      queues.add(queue);
    }
  }
}
