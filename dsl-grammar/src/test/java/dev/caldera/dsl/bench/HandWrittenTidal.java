package dev.caldera.dsl.bench;

import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.dsl.PolicyContext;
import java.util.ArrayList;
import java.util.List;

/** tidal.policy's reclaim rules written by hand in Java: the baseline of the benchmark. */
final class HandWrittenTidal implements ReclaimableFn {

  private static final int INFERENCE = 0;
  private static final int TRAINING = 1;
  private static final int UNKNOWN = 2;
  private static final Victims NONE = Victims.permit(List.of());

  private final PolicyContext context;

  HandWrittenTidal(PolicyContext context) {
    this.context = context;
  }

  @Override
  public Victims select(TaskInfo reclaimer, List<TaskInfo> candidates) {
    int r = service(reclaimer);
    List<TaskInfo> allowed = null;
    for (int i = 0, n = candidates.size(); i < n; i++) {
      TaskInfo c = candidates.get(i);
      if (allows(r, c)) {
        if (allowed == null) {
          allowed = new ArrayList<>(n - i);
        }
        allowed.add(c);
      }
    }
    return allowed == null ? NONE : Victims.permit(allowed);
  }

  private boolean allows(int reclaimer, TaskInfo candidate) {
    return reclaimer != TRAINING && (service(candidate) == TRAINING || otherType(candidate));
  }

  /** The pod group's service type is set and is neither inference nor training (e.g. batch). */
  private boolean otherType(TaskInfo task) {
    JobInfo job = context.job(task);
    String type =
        job == null ? null : job.podGroup().metadata().annotations().get("volcano.sh/service.type");
    return type != null && !type.isEmpty() && !type.equals("inference") && !type.equals("training");
  }

  private int service(TaskInfo task) {
    JobInfo job = context.job(task);
    String type =
        job == null ? null : job.podGroup().metadata().annotations().get("volcano.sh/service.type");
    if (type != null) {
      switch (type) {
        case "inference":
          return INFERENCE;
        case "training":
          return TRAINING;
        case "unknown":
          return UNKNOWN;
        default:
          break;
      }
    }
    List<OwnerReference> owners = task.pod().metadata().ownerReferences();
    if (!owners.isEmpty()) {
      switch (owners.get(0).kind()) {
        case "ReplicaSet":
        case "Deployment":
          return INFERENCE;
        case "Job":
          return TRAINING;
        default:
          break;
      }
    }
    return UNKNOWN;
  }
}
