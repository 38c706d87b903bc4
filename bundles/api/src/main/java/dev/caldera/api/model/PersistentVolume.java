package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.List;

/**
 * The parts of a PersistentVolume that volume binding reads.
 *
 * @param capacity {@code spec.capacity.storage}, or null when absent
 * @param accessModes {@code spec.accessModes} (ReadWriteOnce, ReadOnlyMany, ReadWriteMany,
 *     ReadWriteOncePod)
 * @param storageClassName {@code spec.storageClassName}, empty for none
 * @param nodeAffinity {@code spec.nodeAffinity.required.nodeSelectorTerms} (ORed), or null when the
 *     volume can attach anywhere
 * @param claimRef {@code spec.claimRef}, or null when the volume is not bound or reserved
 * @param csiDriver {@code spec.csi.driver}, empty for a volume that is not CSI
 * @param csiVolumeHandle {@code spec.csi.volumeHandle}, empty when not CSI
 * @param phase {@code status.phase}: Available, Bound, Released, Failed, Pending
 * @param volumeMode {@code spec.volumeMode}, Filesystem when absent
 */
public record PersistentVolume(
    ObjectMeta metadata,
    Quantity capacity,
    List<String> accessModes,
    String storageClassName,
    List<NodeSelectorTerm> nodeAffinity,
    ClaimRef claimRef,
    String csiDriver,
    String csiVolumeHandle,
    String phase,
    String volumeMode) {

  public PersistentVolume {
    accessModes = accessModes == null ? List.of() : List.copyOf(accessModes);
    storageClassName = storageClassName == null ? "" : storageClassName;
    nodeAffinity = nodeAffinity == null ? null : List.copyOf(nodeAffinity);
    csiDriver = csiDriver == null ? "" : csiDriver;
    csiVolumeHandle = csiVolumeHandle == null ? "" : csiVolumeHandle;
    phase = phase == null || phase.isEmpty() ? "Available" : phase;
    volumeMode = volumeMode == null || volumeMode.isEmpty() ? "Filesystem" : volumeMode;
  }

  /** The volume's name. */
  public String name() {
    return metadata.name();
  }

  /** The volume bound (or reserved) for {@code claim}, with phase Bound. */
  public PersistentVolume boundTo(PersistentVolumeClaim claim) {
    return new PersistentVolume(
        metadata,
        capacity,
        accessModes,
        storageClassName,
        nodeAffinity,
        new ClaimRef(claim.namespace(), claim.name(), claim.metadata().uid()),
        csiDriver,
        csiVolumeHandle,
        "Bound",
        volumeMode);
  }

  /**
   * A reference from a volume to the claim it is bound or reserved for.
   *
   * @param uid the claim's uid, or empty when the reference names the claim only
   */
  public record ClaimRef(String namespace, String name, String uid) {
    public ClaimRef {
      namespace = namespace == null ? "" : namespace;
      name = name == null ? "" : name;
      uid = uid == null ? "" : uid;
    }

    /** {@code namespace/name}. */
    public String key() {
      return namespace + "/" + name;
    }
  }
}
