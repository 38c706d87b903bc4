package dev.caldera.plugins.predicates;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodVolume;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's volumes as the volume filters read them, parsed once: the claims it uses ({@code
 * namespace/name}, generic ephemeral volumes included) and the inline disks that cannot be shared.
 */
final class PodClaims {

  static final PodClaims NONE = new PodClaims(new String[0], new PodVolume[0]);

  /** The claims, {@code namespace/name}, in volume order. */
  final String[] claims;

  /** The GCE PD, EBS and iSCSI volumes. */
  final PodVolume[] disks;

  private PodClaims(String[] claims, PodVolume[] disks) {
    this.claims = claims;
    this.disks = disks;
  }

  static PodClaims of(Pod pod) {
    if (pod.volumes().isEmpty()) {
      return NONE;
    }
    List<String> claims = new ArrayList<>();
    List<PodVolume> disks = new ArrayList<>();
    for (PodVolume v : pod.volumes()) {
      if (v.hasClaim()) {
        claims.add(pod.namespace() + "/" + v.claimName());
      } else if (isDisk(v)) {
        disks.add(v);
      }
    }
    if (claims.isEmpty() && disks.isEmpty()) {
      return NONE;
    }
    return new PodClaims(claims.toArray(new String[0]), disks.toArray(new PodVolume[0]));
  }

  /** Whether the pod has neither claims nor conflicting disks (the volume filters pass). */
  boolean isEmpty() {
    return this == NONE;
  }

  private static boolean isDisk(PodVolume v) {
    return switch (v.type()) {
      case PodVolume.GCE_PERSISTENT_DISK, PodVolume.AWS_ELASTIC_BLOCK_STORE, PodVolume.ISCSI ->
          true;
      default -> false;
    };
  }

  /**
   * Whether two inline disks conflict on one node ({@code isVolumeConflict}): the same GCE PD or
   * iSCSI IQN unless both are read-only; the same EBS volume always.
   */
  static boolean conflict(PodVolume a, PodVolume b) {
    if (!a.type().equals(b.type()) || !a.diskId().equals(b.diskId())) {
      return false;
    }
    if (PodVolume.AWS_ELASTIC_BLOCK_STORE.equals(a.type())) {
      return true;
    }
    return !(a.readOnly() && b.readOnly());
  }
}
