package dev.caldera.api.extension;

/**
 * One claim a bind must settle before its pod is bound (kube-scheduler's PreBind of volume
 * binding).
 *
 * @param claim the claim, {@code namespace/name}
 * @param volume the PersistentVolume chosen for the claim, or empty when the claim is to be
 *     provisioned on the pod's node
 */
public record VolumeBinding(String claim, String volume) {
  public VolumeBinding {
    volume = volume == null ? "" : volume;
  }

  /** A claim bound to an existing volume. */
  public static VolumeBinding toVolume(String claim, String volume) {
    return new VolumeBinding(claim, volume);
  }

  /** A claim to provision on the pod's node. */
  public static VolumeBinding provision(String claim) {
    return new VolumeBinding(claim, "");
  }

  /** Whether the claim is to be provisioned (no volume chosen). */
  public boolean provision() {
    return volume.isEmpty();
  }
}
