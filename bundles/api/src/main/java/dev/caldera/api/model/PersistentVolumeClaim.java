package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.List;

/**
 * The parts of a PersistentVolumeClaim that volume binding reads.
 *
 * @param storageClassName the claim's class: the annotation {@code
 *     volume.beta.kubernetes.io/storage-class}, else {@code spec.storageClassName}; empty for none
 * @param accessModes {@code spec.accessModes}
 * @param request {@code spec.resources.requests.storage}, or null when absent
 * @param volumeName {@code spec.volumeName}: the volume the claim is bound to, empty when unbound
 * @param selector {@code spec.selector}, or null when absent
 * @param phase {@code status.phase}: Pending, Bound, Lost
 * @param volumeMode {@code spec.volumeMode}, Filesystem when absent
 */
public record PersistentVolumeClaim(
    ObjectMeta metadata,
    String storageClassName,
    List<String> accessModes,
    Quantity request,
    String volumeName,
    LabelSelector selector,
    String phase,
    String volumeMode) {

  /** The annotation kube-scheduler writes on a claim to provision for the pod's node. */
  public static final String SELECTED_NODE_ANNOTATION = "volume.kubernetes.io/selected-node";

  /** The access mode that lets one pod only use the claim. */
  public static final String READ_WRITE_ONCE_POD = "ReadWriteOncePod";

  public PersistentVolumeClaim {
    storageClassName = storageClassName == null ? "" : storageClassName;
    accessModes = accessModes == null ? List.of() : List.copyOf(accessModes);
    volumeName = volumeName == null ? "" : volumeName;
    phase = phase == null || phase.isEmpty() ? "Pending" : phase;
    volumeMode = volumeMode == null || volumeMode.isEmpty() ? "Filesystem" : volumeMode;
  }

  /** {@code namespace/name}. */
  public String key() {
    return metadata.key();
  }

  /** The claim's name. */
  public String name() {
    return metadata.name();
  }

  /** The claim's namespace. */
  public String namespace() {
    return metadata.namespace();
  }

  /** Whether the claim names its volume ({@code spec.volumeName} set). */
  public boolean bound() {
    return !volumeName.isEmpty();
  }

  /** {@value #SELECTED_NODE_ANNOTATION}, or empty. */
  public String selectedNode() {
    return metadata.annotations().getOrDefault(SELECTED_NODE_ANNOTATION, "");
  }

  /** The claim bound to {@code volume}, with phase Bound. */
  public PersistentVolumeClaim boundTo(String volume) {
    return new PersistentVolumeClaim(
        metadata, storageClassName, accessModes, request, volume, selector, "Bound", volumeMode);
  }
}
