package dev.caldera.kube.internal;

import static dev.caldera.kube.internal.Meta.list;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import dev.caldera.api.resource.Quantity;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts a v1 Pod to the scheduler's model: the spec fields it reads, and the status. */
final class PodConverter {

  private PodConverter() {}

  /** The pod as the scheduler sees it. */
  static Pod pod(io.fabric8.kubernetes.api.model.Pod p) {
    PodSpec spec = p.getSpec() == null ? new PodSpec() : p.getSpec();
    PodStatus status = p.getStatus() == null ? new PodStatus() : p.getStatus();
    Affinity affinity = spec.getAffinity() == null ? new Affinity() : spec.getAffinity();
    List<String> gates = new ArrayList<>();
    list(spec.getSchedulingGates()).forEach(g -> gates.add(g.getName()));
    return new Pod(
        Meta.meta(p.getMetadata()),
        spec.getSchedulerName(),
        spec.getNodeName(),
        spec.getPriority(),
        spec.getPriorityClassName(),
        spec.getPreemptionPolicy(),
        spec.getNodeSelector(),
        nodeAffinity(affinity.getNodeAffinity()),
        podAffinity(
            affinity.getPodAffinity() == null
                ? null
                : affinity.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
            affinity.getPodAffinity() == null
                ? null
                : affinity.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()),
        podAffinity(
            affinity.getPodAntiAffinity() == null
                ? null
                : affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
            affinity.getPodAntiAffinity() == null
                ? null
                : affinity
                    .getPodAntiAffinity()
                    .getPreferredDuringSchedulingIgnoredDuringExecution()),
        tolerations(list(spec.getTolerations())),
        containers(list(spec.getContainers())),
        containers(list(spec.getInitContainers())),
        spreadConstraints(list(spec.getTopologySpreadConstraints())),
        Meta.quantities(spec.getOverhead()),
        gates,
        status.getPhase(),
        status.getNominatedNodeName(),
        Meta.podConditions(status.getConditions()),
        StorageConverter.podVolumes(p.getMetadata().getName(), list(spec.getVolumes())));
  }

  private static List<Container> containers(List<io.fabric8.kubernetes.api.model.Container> in) {
    List<Container> out = new ArrayList<>(in.size());
    for (io.fabric8.kubernetes.api.model.Container c : in) {
      ResourceRequirements r = c.getResources();
      // API-server defaulting: a resource with a limit and no request requests its limit.
      Map<String, Quantity> requests = new LinkedHashMap<>();
      if (r != null) {
        Map<String, Quantity> req = Meta.quantities(r.getRequests());
        Map<String, Quantity> lim = Meta.quantities(r.getLimits());
        if (req != null) {
          requests.putAll(req);
        }
        if (lim != null) {
          lim.forEach(requests::putIfAbsent);
        }
      }
      List<ContainerPort> ports = new ArrayList<>();
      for (io.fabric8.kubernetes.api.model.ContainerPort port : list(c.getPorts())) {
        ports.add(
            new ContainerPort(
                port.getContainerPort() == null ? 0 : port.getContainerPort(),
                port.getHostPort() == null ? 0 : port.getHostPort(),
                port.getProtocol(),
                port.getHostIP()));
      }
      out.add(new Container(c.getName(), c.getImage(), requests, ports, c.getRestartPolicy()));
    }
    return out;
  }

  private static List<Toleration> tolerations(List<io.fabric8.kubernetes.api.model.Toleration> in) {
    List<Toleration> out = new ArrayList<>(in.size());
    for (io.fabric8.kubernetes.api.model.Toleration t : in) {
      out.add(
          new Toleration(
              t.getKey(), t.getOperator(), t.getValue(), t.getEffect(), t.getTolerationSeconds()));
    }
    return out;
  }

  private static NodeAffinity nodeAffinity(io.fabric8.kubernetes.api.model.NodeAffinity a) {
    if (a == null) {
      return new NodeAffinity(null, null);
    }
    List<NodeSelectorTerm> required = null;
    if (a.getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
      required = new ArrayList<>();
      for (io.fabric8.kubernetes.api.model.NodeSelectorTerm t :
          list(a.getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())) {
        required.add(term(t));
      }
    }
    List<PreferredSchedulingTerm> preferred = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.PreferredSchedulingTerm t :
        list(a.getPreferredDuringSchedulingIgnoredDuringExecution())) {
      preferred.add(
          new PreferredSchedulingTerm(
              t.getWeight() == null ? 0 : t.getWeight(), term(t.getPreference())));
    }
    return new NodeAffinity(required, preferred);
  }

  static NodeSelectorTerm term(io.fabric8.kubernetes.api.model.NodeSelectorTerm t) {
    if (t == null) {
      return new NodeSelectorTerm(null, null);
    }
    return new NodeSelectorTerm(
        requirements(list(t.getMatchExpressions())), requirements(list(t.getMatchFields())));
  }

  private static List<NodeSelectorRequirement> requirements(
      List<io.fabric8.kubernetes.api.model.NodeSelectorRequirement> in) {
    List<NodeSelectorRequirement> out = new ArrayList<>(in.size());
    for (io.fabric8.kubernetes.api.model.NodeSelectorRequirement r : in) {
      out.add(new NodeSelectorRequirement(r.getKey(), r.getOperator(), r.getValues()));
    }
    return out;
  }

  private static PodAffinity podAffinity(
      List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required,
      List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> preferred) {
    List<PodAffinityTerm> req = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.PodAffinityTerm t : list(required)) {
      req.add(term(t));
    }
    List<WeightedPodAffinityTerm> pref = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm t : list(preferred)) {
      pref.add(
          new WeightedPodAffinityTerm(
              t.getWeight() == null ? 0 : t.getWeight(), term(t.getPodAffinityTerm())));
    }
    return new PodAffinity(req, pref);
  }

  private static PodAffinityTerm term(io.fabric8.kubernetes.api.model.PodAffinityTerm t) {
    if (t == null) {
      return new PodAffinityTerm(null, null, null, null, null, null);
    }
    return new PodAffinityTerm(
        Meta.selector(t.getLabelSelector()),
        t.getNamespaces(),
        t.getTopologyKey(),
        Meta.selector(t.getNamespaceSelector()),
        t.getMatchLabelKeys(),
        t.getMismatchLabelKeys());
  }

  private static List<TopologySpreadConstraint> spreadConstraints(
      List<io.fabric8.kubernetes.api.model.TopologySpreadConstraint> in) {
    List<TopologySpreadConstraint> out = new ArrayList<>(in.size());
    for (io.fabric8.kubernetes.api.model.TopologySpreadConstraint c : in) {
      out.add(
          new TopologySpreadConstraint(
              c.getMaxSkew() == null ? 1 : c.getMaxSkew(),
              c.getTopologyKey(),
              c.getWhenUnsatisfiable() == null ? "DoNotSchedule" : c.getWhenUnsatisfiable(),
              Meta.selector(c.getLabelSelector()),
              c.getMinDomains(),
              c.getNodeAffinityPolicy(),
              c.getNodeTaintsPolicy(),
              c.getMatchLabelKeys()));
    }
    return out;
  }
}
