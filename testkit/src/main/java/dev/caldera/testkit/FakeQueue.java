package dev.caldera.testkit;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.model.NodeGroupAffinity;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** A queue. Defaults: weight 1, Open, reclaimable unset (true), root parent, priority 0. */
public final class FakeQueue implements QueueInfo {

  private final String name;
  private int weight = 1;
  private Map<String, Quantity> capability;
  private Map<String, Quantity> deserved;
  private Map<String, Quantity> guarantee;
  private Boolean reclaimable;
  private String parent = "";
  private int priority;
  private NodeGroupAffinity nodeGroupAffinity;
  private NodeGroupAffinity nodeGroupAntiAffinity;
  private String state = "Open";
  private Map<String, Quantity> allocated;
  private Instant created = Instant.EPOCH;
  private final Map<String, String> labels = new TreeMap<>();
  private final Map<String, String> annotations = new TreeMap<>();

  /** A queue outside any session; {@link FakeSession#addQueue} makes one inside. */
  public FakeQueue(String name) {
    this.name = name;
  }

  public FakeQueue weight(int weight) {
    this.weight = weight;
    return this;
  }

  /** {@code spec.capability} as name/quantity pairs. */
  public FakeQueue capability(String... nameQuantityPairs) {
    capability = Resources.list(nameQuantityPairs);
    return this;
  }

  /** {@code spec.deserved} as name/quantity pairs. */
  public FakeQueue deserved(String... nameQuantityPairs) {
    deserved = Resources.list(nameQuantityPairs);
    return this;
  }

  /** {@code spec.guarantee.resource} as name/quantity pairs. */
  public FakeQueue guarantee(String... nameQuantityPairs) {
    guarantee = Resources.list(nameQuantityPairs);
    return this;
  }

  /** {@code status.allocated} as name/quantity pairs. */
  public FakeQueue statusAllocated(String... nameQuantityPairs) {
    allocated = Resources.list(nameQuantityPairs);
    return this;
  }

  public FakeQueue reclaimable(boolean reclaimable) {
    this.reclaimable = reclaimable;
    return this;
  }

  public FakeQueue parent(String parent) {
    this.parent = parent;
    return this;
  }

  public FakeQueue priority(int priority) {
    this.priority = priority;
    return this;
  }

  /** Open, Closed, Closing or Unknown. */
  public FakeQueue state(String state) {
    this.state = state;
    return this;
  }

  public FakeQueue nodeGroupAffinity(NodeGroupAffinity affinity) {
    this.nodeGroupAffinity = affinity;
    return this;
  }

  public FakeQueue nodeGroupAntiAffinity(NodeGroupAffinity antiAffinity) {
    this.nodeGroupAntiAffinity = antiAffinity;
    return this;
  }

  public FakeQueue created(Instant created) {
    this.created = created;
    return this;
  }

  /** Sets the creation time to {@code seconds} after the epoch. */
  public FakeQueue created(long seconds) {
    return created(Instant.ofEpochSecond(seconds));
  }

  public FakeQueue label(String key, String value) {
    labels.put(key, value);
    return this;
  }

  public FakeQueue annotation(String key, String value) {
    annotations.put(key, value);
    return this;
  }

  /** Sets the hierarchical-DRF annotations, e.g. {@code hierarchy("root/eng/dev", "1/2/4")}. */
  public FakeQueue hierarchy(String path, String weights) {
    annotation("volcano.sh/hierarchy", path);
    return annotation("volcano.sh/hierarchy-weights", weights);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Queue queue() {
    return new Queue(
        new ObjectMeta(name, "", null, created, null, labels, annotations, null),
        weight,
        capability,
        deserved,
        guarantee,
        reclaimable,
        parent,
        priority,
        nodeGroupAffinity,
        nodeGroupAntiAffinity,
        state,
        allocated);
  }

  @Override
  public String toString() {
    return "FakeQueue[" + name + "]";
  }
}
