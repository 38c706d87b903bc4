package dev.caldera.testkit;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import dev.caldera.api.resource.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pod fields a test can set, shared by {@link PodBuilder} and {@link FakeTask}. The pod has one
 * main container that carries {@link #requests}, {@link #hostPort} and {@link #image}; more
 * containers can be added with {@link #container}.
 *
 * @param <S> the concrete builder, returned by every setter
 */
public abstract class AbstractPodBuilder<S extends AbstractPodBuilder<S>> {

  private final String podName;
  private final String podNamespace;
  private String podUid;
  private Instant created = Instant.EPOCH;
  private Instant deleted;
  private final Map<String, String> labels = new TreeMap<>();
  private final Map<String, String> annotations = new TreeMap<>();
  private final List<OwnerReference> owners = new ArrayList<>();
  private String schedulerName = "volcano";
  private String specNodeName = "";
  private Integer specPriority;
  private String priorityClassName = "";
  private String preemptionPolicy = "";
  private final Map<String, String> nodeSelector = new TreeMap<>();
  private NodeAffinity nodeAffinity;
  private PodAffinity podAffinity;
  private PodAffinity podAntiAffinity;
  private final List<Toleration> tolerations = new ArrayList<>();
  private final Map<String, Quantity> requests = new LinkedHashMap<>();
  private final List<ContainerPort> ports = new ArrayList<>();
  private String image = "";
  private final List<Container> extraContainers = new ArrayList<>();
  private final List<Container> initContainers = new ArrayList<>();
  private final List<TopologySpreadConstraint> spread = new ArrayList<>();
  private final Map<String, Quantity> overhead = new LinkedHashMap<>();
  private final List<String> schedulingGates = new ArrayList<>();
  private String podPhase;
  private String nominatedNodeName = "";
  private final List<PodCondition> conditions = new ArrayList<>();

  /** {@code key} is {@code namespace/name}, or a bare name in namespace {@code default}. */
  protected AbstractPodBuilder(String key) {
    int slash = key.indexOf('/');
    this.podNamespace = slash < 0 ? "default" : key.substring(0, slash);
    this.podName = slash < 0 ? key : key.substring(slash + 1);
  }

  /** This builder, typed. */
  protected abstract S self();

  /** The pod name. */
  protected final String podName() {
    return podName;
  }

  /** The pod namespace. */
  protected final String podNamespace() {
    return podNamespace;
  }

  /** The pod UID: as set, else {@code namespace-name}. */
  protected final String podUid() {
    return podUid != null ? podUid : podNamespace + "-" + podName;
  }

  /** The pod's annotation, else its label, or null. */
  protected final String annotationOrLabel(String key) {
    String v = annotations.get(key);
    return v != null ? v : labels.get(key);
  }

  /** The pod's creation time. */
  protected final Instant created() {
    return created;
  }

  /** The scheduling gates. */
  protected final List<String> gates() {
    return schedulingGates;
  }

  /** The {@code spec.priority}, or null. */
  protected final Integer specPriority() {
    return specPriority;
  }

  // ------------------------------------------------------------ metadata

  public S uid(String uid) {
    this.podUid = uid;
    return self();
  }

  public S created(Instant created) {
    this.created = created;
    return self();
  }

  /** Sets the creation time to {@code seconds} after the epoch. */
  public S created(long seconds) {
    return created(Instant.ofEpochSecond(seconds));
  }

  public S deleted(Instant deleted) {
    this.deleted = deleted;
    return self();
  }

  public S label(String key, String value) {
    labels.put(key, value);
    return self();
  }

  public S annotation(String key, String value) {
    annotations.put(key, value);
    return self();
  }

  public S owner(String kind, String name) {
    owners.add(new OwnerReference("v1", kind, name, name + "-uid", true));
    return self();
  }

  // ------------------------------------------------------------ spec

  public S schedulerName(String name) {
    this.schedulerName = name;
    return self();
  }

  /** Sets {@code spec.nodeName} (a {@link FakeTask} uses the node it is placed on instead). */
  public S specNodeName(String nodeName) {
    this.specNodeName = nodeName;
    return self();
  }

  /** Sets {@code spec.priority}. */
  public S priority(int priority) {
    this.specPriority = priority;
    return self();
  }

  public S priorityClassName(String name) {
    this.priorityClassName = name;
    return self();
  }

  public S preemptionPolicy(String policy) {
    this.preemptionPolicy = policy;
    return self();
  }

  /** Requests of the main container, as name/quantity pairs; replaces earlier values per name. */
  public S requests(String... nameQuantityPairs) {
    requests.putAll(Resources.list(nameQuantityPairs));
    return self();
  }

  /** The main container's image. */
  public S image(String image) {
    this.image = image;
    return self();
  }

  /** A TCP host port on the main container. */
  public S hostPort(int port) {
    return hostPort(port, "TCP", "");
  }

  /** A host port on the main container. */
  public S hostPort(int port, String protocol, String hostIP) {
    ports.add(new ContainerPort(port, port, protocol, hostIP));
    return self();
  }

  /** Another regular container. */
  public S container(Container container) {
    extraContainers.add(container);
    return self();
  }

  /** An init container (sidecars have {@code restartPolicy: Always}). */
  public S initContainer(Container container) {
    initContainers.add(container);
    return self();
  }

  /** A plain init container with these requests. */
  public S initRequests(String... nameQuantityPairs) {
    return initContainer(
        new Container(
            "init-" + initContainers.size(), "", Resources.list(nameQuantityPairs), null, null));
  }

  public S overhead(String... nameQuantityPairs) {
    overhead.putAll(Resources.list(nameQuantityPairs));
    return self();
  }

  public S nodeSelector(String key, String value) {
    nodeSelector.put(key, value);
    return self();
  }

  public S nodeAffinity(NodeAffinity affinity) {
    this.nodeAffinity = affinity;
    return self();
  }

  /** Adds a required node selector term with one expression (terms are ORed). */
  public S requiredNodeAffinity(String key, String operator, String... values) {
    NodeSelectorTerm term = term(key, operator, values);
    List<NodeSelectorTerm> required =
        new ArrayList<>(
            nodeAffinity == null || nodeAffinity.required() == null
                ? List.of()
                : nodeAffinity.required());
    required.add(term);
    nodeAffinity =
        new NodeAffinity(required, nodeAffinity == null ? null : nodeAffinity.preferred());
    return self();
  }

  /** Adds a preferred node selector term with one expression. */
  public S preferredNodeAffinity(int weight, String key, String operator, String... values) {
    List<PreferredSchedulingTerm> preferred =
        new ArrayList<>(nodeAffinity == null ? List.of() : nodeAffinity.preferred());
    preferred.add(new PreferredSchedulingTerm(weight, term(key, operator, values)));
    nodeAffinity =
        new NodeAffinity(nodeAffinity == null ? null : nodeAffinity.required(), preferred);
    return self();
  }

  private static NodeSelectorTerm term(String key, String operator, String... values) {
    return new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement(key, operator, List.of(values))), null);
  }

  public S podAffinity(PodAffinity affinity) {
    this.podAffinity = affinity;
    return self();
  }

  public S podAntiAffinity(PodAffinity antiAffinity) {
    this.podAntiAffinity = antiAffinity;
    return self();
  }

  /** Adds a required pod affinity term selecting pods with these labels (key/value pairs). */
  public S requiredPodAffinity(String topologyKey, String... matchLabels) {
    podAffinity = withRequired(podAffinity, affinityTerm(topologyKey, matchLabels));
    return self();
  }

  /** Adds a required pod anti-affinity term selecting pods with these labels. */
  public S requiredPodAntiAffinity(String topologyKey, String... matchLabels) {
    podAntiAffinity = withRequired(podAntiAffinity, affinityTerm(topologyKey, matchLabels));
    return self();
  }

  /** Adds a preferred pod affinity term selecting pods with these labels. */
  public S preferredPodAffinity(int weight, String topologyKey, String... matchLabels) {
    podAffinity = withPreferred(podAffinity, weight, affinityTerm(topologyKey, matchLabels));
    return self();
  }

  /** Adds a preferred pod anti-affinity term selecting pods with these labels. */
  public S preferredPodAntiAffinity(int weight, String topologyKey, String... matchLabels) {
    podAntiAffinity =
        withPreferred(podAntiAffinity, weight, affinityTerm(topologyKey, matchLabels));
    return self();
  }

  /** A pod affinity term in the pod's own namespace selecting pods with these labels. */
  public static PodAffinityTerm affinityTerm(String topologyKey, String... matchLabels) {
    return new PodAffinityTerm(selector(matchLabels), null, topologyKey, null, null, null);
  }

  /** A label selector matching these key/value pairs. */
  public static LabelSelector selector(String... keyValuePairs) {
    if (keyValuePairs.length % 2 != 0) {
      throw new IllegalArgumentException("expected key/value pairs");
    }
    Map<String, String> labels = new TreeMap<>();
    for (int i = 0; i < keyValuePairs.length; i += 2) {
      labels.put(keyValuePairs[i], keyValuePairs[i + 1]);
    }
    return new LabelSelector(labels, null);
  }

  private static PodAffinity withRequired(PodAffinity a, PodAffinityTerm term) {
    List<PodAffinityTerm> required = new ArrayList<>(a == null ? List.of() : a.required());
    required.add(term);
    return new PodAffinity(required, a == null ? null : a.preferred());
  }

  private static PodAffinity withPreferred(PodAffinity a, int weight, PodAffinityTerm term) {
    List<WeightedPodAffinityTerm> preferred =
        new ArrayList<>(a == null ? List.of() : a.preferred());
    preferred.add(new WeightedPodAffinityTerm(weight, term));
    return new PodAffinity(a == null ? null : a.required(), preferred);
  }

  public S toleration(Toleration toleration) {
    tolerations.add(toleration);
    return self();
  }

  /** Tolerates the taint {@code key=value:effect} (operator Equal). */
  public S tolerates(String key, String value, String effect) {
    return toleration(new Toleration(key, "Equal", value, effect, null));
  }

  public S spreadConstraint(TopologySpreadConstraint constraint) {
    spread.add(constraint);
    return self();
  }

  /** A topology spread constraint over pods with these labels (key/value pairs). */
  public S spread(int maxSkew, String topologyKey, String whenUnsatisfiable, String... labels) {
    return spreadConstraint(
        new TopologySpreadConstraint(
            maxSkew, topologyKey, whenUnsatisfiable, selector(labels), null, null, null, null));
  }

  public S schedulingGate(String gate) {
    schedulingGates.add(gate);
    return self();
  }

  /** Sets {@code status.phase} (a {@link FakeTask} derives it from its status otherwise). */
  public S podPhase(String phase) {
    this.podPhase = phase;
    return self();
  }

  public S nominatedNodeName(String nodeName) {
    this.nominatedNodeName = nodeName;
    return self();
  }

  public S condition(PodCondition condition) {
    conditions.add(condition);
    return self();
  }

  // ------------------------------------------------------------ build

  /** The pod, with {@code nodeName} and {@code phase} used where the builder has none. */
  protected final Pod buildPod(String defaultNodeName, String defaultPhase) {
    List<Container> containers = new ArrayList<>();
    containers.add(new Container("main", image, requests, ports, null));
    containers.addAll(extraContainers);
    return new Pod(
        new ObjectMeta(
            podName, podNamespace, podUid(), created, deleted, labels, annotations, owners),
        schedulerName,
        specNodeName.isEmpty() ? defaultNodeName : specNodeName,
        specPriority,
        priorityClassName,
        preemptionPolicy,
        nodeSelector,
        nodeAffinity,
        podAffinity,
        podAntiAffinity,
        tolerations,
        containers,
        initContainers,
        spread,
        overhead,
        schedulingGates,
        podPhase != null ? podPhase : defaultPhase,
        nominatedNodeName,
        conditions);
  }
}
