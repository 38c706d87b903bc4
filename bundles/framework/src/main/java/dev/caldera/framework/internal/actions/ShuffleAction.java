package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * Volcano's {@code shuffle}: evicts at once every Running task that the victim-task functions
 * select (the union of the first tier that selects any).
 */
@Component(service = Action.class)
public final class ShuffleAction implements Action {

  public static final String NAME = "shuffle";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(ActionSession session) {
    List<TaskInfo> running = new ArrayList<>();
    for (JobInfo job : session.jobs()) {
      for (TaskInfo t : job.tasks()) {
        if (t.status() == TaskStatus.RUNNING) {
          running.add(t);
        }
      }
    }
    for (TaskInfo victim : List.copyOf(session.victimTasks(running))) {
      session.evict(victim, NAME);
    }
  }
}
