package dev.caldera.plugins.conformance;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's {@code conformance} plugin: never evicts system-critical pods or pods in {@code
 * kube-system}.
 */
public final class ConformancePlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "conformance";

  private static final String SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical";
  private static final String SYSTEM_NODE_CRITICAL = "system-node-critical";
  private static final String KUBE_SYSTEM = "kube-system";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    extensions.add(ExtensionPoint.PREEMPTABLE, (evictor, candidates) -> evictable(candidates));
    extensions.add(ExtensionPoint.RECLAIMABLE, (evictor, candidates) -> evictable(candidates));
  }

  /** Every candidate except critical pods, in input order. */
  static Victims evictable(List<TaskInfo> candidates) {
    List<TaskInfo> victims = new ArrayList<>(candidates.size());
    for (TaskInfo candidate : candidates) {
      String className = candidate.pod().priorityClassName();
      if (className.equals(SYSTEM_CLUSTER_CRITICAL)
          || className.equals(SYSTEM_NODE_CRITICAL)
          || candidate.namespace().equals(KUBE_SYSTEM)) {
        continue;
      }
      victims.add(candidate);
    }
    return Victims.permit(victims);
  }
}
