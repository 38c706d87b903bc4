package dev.caldera.testkit;

import dev.caldera.api.model.ContainerImage;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Taint;
import dev.caldera.api.resource.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The node fields a test can set, shared by {@link NodeBuilder} and {@link FakeNode}. Capacity
 * defaults to the allocatable.
 *
 * @param <S> the concrete builder, returned by every setter
 */
public abstract class AbstractNodeBuilder<S extends AbstractNodeBuilder<S>> {

  private final String nodeName;
  private final Map<String, String> labels = new TreeMap<>();
  private final Map<String, String> annotations = new TreeMap<>();
  private final List<Taint> taints = new ArrayList<>();
  private boolean unschedulable;
  private final Map<String, Quantity> allocatable = new LinkedHashMap<>();
  private Map<String, Quantity> capacity;
  private final List<ContainerImage> images = new ArrayList<>();

  protected AbstractNodeBuilder(String name) {
    this.nodeName = name;
  }

  /** This builder, typed. */
  protected abstract S self();

  /** The node name. */
  protected final String nodeName() {
    return nodeName;
  }

  /** The allocatable list as set. */
  protected final Map<String, Quantity> allocatableList() {
    return allocatable;
  }

  /** The capacity list (the allocatable unless set). */
  protected final Map<String, Quantity> capacityList() {
    return capacity != null ? capacity : allocatable;
  }

  /** Allocatable as name/quantity pairs; replaces earlier values per name. */
  public S allocatable(String... nameQuantityPairs) {
    allocatable.putAll(Resources.list(nameQuantityPairs));
    return self();
  }

  /** Capacity as name/quantity pairs (otherwise equal to the allocatable). */
  public S capacity(String... nameQuantityPairs) {
    if (capacity == null) {
      capacity = new LinkedHashMap<>();
    }
    capacity.putAll(Resources.list(nameQuantityPairs));
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

  /** A taint {@code key=value:effect}. */
  public S taint(String key, String value, String effect) {
    taints.add(new Taint(key, value, effect));
    return self();
  }

  /** Cordons the node ({@code spec.unschedulable}). */
  public S unschedulable(boolean unschedulable) {
    this.unschedulable = unschedulable;
    return self();
  }

  /** An image present on the node. */
  public S image(String name, long sizeBytes) {
    images.add(new ContainerImage(List.of(name), sizeBytes));
    return self();
  }

  /** The node. */
  protected final Node buildNode() {
    return new Node(
        new ObjectMeta(nodeName, "", null, null, null, labels, annotations, null),
        unschedulable,
        taints,
        allocatable,
        capacityList(),
        images);
  }
}
