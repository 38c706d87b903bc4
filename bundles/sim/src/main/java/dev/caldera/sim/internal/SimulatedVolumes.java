package dev.caldera.sim.internal;

import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.model.CSINode;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.Storage;
import dev.caldera.api.model.StorageClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage of the embedded cluster, with what the volume controllers of a real cluster do once
 * the scheduler decided: a chosen volume and its claim are bound to each other, and a claim to
 * provision gets a new volume ({@code pvc-<claim uid>}) of its class, size and access modes,
 * attachable only where the node's values of the class's topology keys are (anywhere when the class
 * names none). Not thread-safe; the cluster holds its lock.
 */
public final class SimulatedVolumes {

  private final Map<String, PersistentVolume> volumes = new LinkedHashMap<>();
  private final Map<String, PersistentVolumeClaim> claims = new LinkedHashMap<>();
  private final List<StorageClass> classes;
  private final List<CSINode> csiNodes;
  private Storage current;

  public SimulatedVolumes(Storage initial) {
    initial.volumes().forEach(v -> volumes.put(v.name(), v));
    initial.claims().forEach(c -> claims.put(c.key(), c));
    this.classes = initial.classes();
    this.csiNodes = initial.csiNodes();
    this.current = initial;
  }

  /** The storage objects as they are now. */
  public Storage storage() {
    if (current == null) {
      current =
          new Storage(
              List.copyOf(volumes.values()), List.copyOf(claims.values()), classes, csiNodes);
    }
    return current;
  }

  /**
   * Settles one claim of a pod bound to {@code node}; a claim or volume that is gone is skipped.
   */
  public void bind(VolumeBinding b, Node node) {
    PersistentVolumeClaim claim = claims.get(b.claim());
    if (claim == null || claim.bound()) {
      return;
    }
    PersistentVolume volume = b.provision() ? provision(claim, node) : volumes.get(b.volume());
    if (volume == null) {
      return;
    }
    volumes.put(volume.name(), volume.boundTo(claim));
    claims.put(claim.key(), claim.boundTo(volume.name()));
    current = null;
  }

  private PersistentVolume provision(PersistentVolumeClaim claim, Node node) {
    StorageClass sc = null;
    for (StorageClass c : classes) {
      if (c.name().equals(claim.storageClassName())) {
        sc = c;
      }
    }
    if (sc == null || node == null) {
      return null;
    }
    List<NodeSelectorTerm> affinity = null;
    if (!sc.allowedTopologies().isEmpty()) {
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      for (NodeSelectorTerm t : sc.allowedTopologies()) {
        for (NodeSelectorRequirement r : t.matchExpressions()) {
          String value = node.metadata().labels().get(r.key());
          if (value != null && reqs.stream().noneMatch(q -> q.key().equals(r.key()))) {
            reqs.add(new NodeSelectorRequirement(r.key(), "In", List.of(value)));
          }
        }
      }
      affinity = List.of(new NodeSelectorTerm(reqs, null));
    }
    String name = "pvc-" + claim.metadata().uid();
    return new PersistentVolume(
        ObjectMeta.named("", name),
        claim.request(),
        claim.accessModes(),
        claim.storageClassName(),
        affinity,
        null,
        sc.provisioner(),
        name,
        "Available",
        claim.volumeMode());
  }
}
