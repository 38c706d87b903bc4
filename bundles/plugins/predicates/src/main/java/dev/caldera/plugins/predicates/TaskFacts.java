package dev.caldera.plugins.predicates;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.NodeSelection;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.SpreadConstraint;
import java.util.ArrayList;
import java.util.List;

/**
 * What the filters need to know about one pod, once per session: its node selection, required
 * inter-pod terms and hard spread constraints (from the task's {@link PodPlacement}, which the
 * nodeorder scores read too), tolerations, host ports and claims. A pod without any of them costs
 * the filters only a few field reads.
 */
final class TaskFacts {

  static final String UNSCHEDULABLE_TAINT_KEY = "node.kubernetes.io/unschedulable";
  static final String TEMPLATE_UID_ANNOTATION = "volcano.sh/template-uid";
  private static final Taint UNSCHEDULABLE_TAINT =
      new Taint(UNSCHEDULABLE_TAINT_KEY, "", "NoSchedule");

  final Pod pod;
  final PodPlacement placement;
  final NodeSelection nodeSelection;

  /** Whether the required node affinity names no node at all (upstream PreFilter conflict). */
  final boolean nodeNamesConflict;

  final List<Toleration> tolerations;
  final boolean toleratesUnschedulable;

  /** The wanted host ports; empty when the pod asks for none. */
  final HostPorts.Wanted[] hostPorts;

  /** The pod's required affinity terms, namespaces resolved. */
  final List<AffinityTerm> affinity;

  /** The pod's required anti-affinity terms, namespaces resolved. */
  final List<AffinityTerm> antiAffinity;

  /** The pod's required anti-affinity terms as written, for when it is an existing pod. */
  final List<AffinityTerm> existingAntiAffinity;

  /** The DoNotSchedule spread constraints. */
  final List<SpreadConstraint> spread;

  /** What the pod's placement terms have wrong (see {@link PodPlacement#problems()}). */
  final List<String> placementProblems;

  /** {@value #TEMPLATE_UID_ANNOTATION}, or null. */
  final String templateUid;

  /** The claims and inline disks the volume filters check. */
  final PodClaims claims;

  private TaskFacts(TaskInfo task, List<Namespace> namespaces) {
    this.pod = task.pod();
    this.placement = task.placement();
    this.nodeSelection = placement.requiredNodes();
    this.nodeNamesConflict = placement.nodeNamesConflict();
    this.tolerations = pod.tolerations();
    this.toleratesUnschedulable = tolerates(tolerations, UNSCHEDULABLE_TAINT);
    this.hostPorts = HostPorts.wanted(pod);
    this.existingAntiAffinity = placement.requiredAntiAffinity();
    this.affinity = resolve(placement.requiredAffinity(), namespaces);
    this.antiAffinity = resolve(existingAntiAffinity, namespaces);
    this.spread = placement.hardSpread();
    this.placementProblems = placement.problems();
    this.templateUid = pod.metadata().annotations().get(TEMPLATE_UID_ANNOTATION);
    this.claims = PodClaims.of(pod);
  }

  static TaskFacts of(TaskInfo task, List<Namespace> namespaces) {
    return new TaskFacts(task, namespaces);
  }

  private static List<AffinityTerm> resolve(List<AffinityTerm> terms, List<Namespace> namespaces) {
    if (terms.isEmpty()) {
      return terms;
    }
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (AffinityTerm t : terms) {
      out.add(t.resolveNamespaces(namespaces));
    }
    return List.copyOf(out);
  }

  /** Whether some toleration tolerates {@code taint}. */
  static boolean tolerates(List<Toleration> tolerations, Taint taint) {
    for (int i = 0; i < tolerations.size(); i++) {
      if (tolerations.get(i).tolerates(taint)) {
        return true;
      }
    }
    return false;
  }

  /** The host ports of sidecar init containers and regular containers ({@code GetHostPorts}). */
  static List<ContainerPort> hostPortsOf(Pod pod) {
    List<ContainerPort> out = new ArrayList<>();
    for (Container c : pod.initContainers()) {
      if ("Always".equals(c.restartPolicy())) {
        addHostPorts(c, out);
      }
    }
    for (Container c : pod.containers()) {
      addHostPorts(c, out);
    }
    return out;
  }

  private static void addHostPorts(Container c, List<ContainerPort> out) {
    for (ContainerPort p : c.ports()) {
      if (p.hostPort() > 0) {
        out.add(p);
      }
    }
  }
}
