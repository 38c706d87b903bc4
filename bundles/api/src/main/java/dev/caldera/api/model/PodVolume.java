package dev.caldera.api.model;

/**
 * One entry of a pod's {@code spec.volumes}, as far as scheduling reads it: the claim it names, or
 * the disk it mounts for the sources that cannot be shared between pods on one node.
 *
 * @param name the volume's name in the pod
 * @param type {@link #CLAIM}, {@link #EPHEMERAL}, {@link #GCE_PERSISTENT_DISK}, {@link
 *     #AWS_ELASTIC_BLOCK_STORE}, {@link #ISCSI}, or {@link #OTHER} for every other source
 * @param claimName the claim's name for {@link #CLAIM} and {@link #EPHEMERAL} ({@code
 *     <pod>-<volume>}, as the ephemeral volume controller names it), else empty
 * @param diskId the disk for the conflicting sources: the GCE {@code pdName}, the EBS {@code
 *     volumeID}, the iSCSI {@code iqn}; else empty
 * @param readOnly the source's {@code readOnly}
 */
public record PodVolume(
    String name, String type, String claimName, String diskId, boolean readOnly) {

  public static final String CLAIM = "persistentVolumeClaim";
  public static final String EPHEMERAL = "ephemeral";
  public static final String GCE_PERSISTENT_DISK = "gcePersistentDisk";
  public static final String AWS_ELASTIC_BLOCK_STORE = "awsElasticBlockStore";
  public static final String ISCSI = "iscsi";
  public static final String OTHER = "other";

  public PodVolume {
    name = name == null ? "" : name;
    type = type == null ? OTHER : type;
    claimName = claimName == null ? "" : claimName;
    diskId = diskId == null ? "" : diskId;
  }

  /** A volume backed by the claim {@code claimName}. */
  public static PodVolume claim(String name, String claimName, boolean readOnly) {
    return new PodVolume(name, CLAIM, claimName, "", readOnly);
  }

  /** Whether the volume names a PersistentVolumeClaim (directly or as a generic ephemeral one). */
  public boolean hasClaim() {
    return !claimName.isEmpty();
  }
}
