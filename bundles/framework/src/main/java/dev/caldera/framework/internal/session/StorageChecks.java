package dev.caldera.framework.internal.session;

import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.Storage;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The storage objects a session can use, as Kubernetes would hold them. A PersistentVolume whose
 * {@code spec.capacity.storage}, or a claim whose {@code spec.resources.requests.storage}, is out
 * of {@link ResourceBounds} (below zero, say), and one whose {@code status.phase} is not a phase
 * Kubernetes defines, is left out: the API server refuses such an object, so a pod naming the claim
 * finds none. A claim naming a volume that another claim holds ({@link
 * Storage#namesVolumeOfAnother}) stays, pending, as Kubernetes' volume controller leaves it. Each
 * gets one warning event naming the field and what was expected.
 */
final class StorageChecks {

  static final List<String> VOLUME_PHASES =
      List.of("Pending", "Available", "Bound", "Released", "Failed");
  static final List<String> CLAIM_PHASES = List.of("Pending", "Bound", "Lost");

  private StorageChecks() {}

  /** {@code storage} without the objects no session may use; an event for each problem. */
  static Storage usable(Storage storage, List<SessionResult.Event> events) {
    if (storage.isEmpty()) {
      return storage;
    }
    List<PersistentVolume> volumes = new ArrayList<>(storage.volumes().size());
    for (PersistentVolume v : storage.volumes()) {
      String why = problem(v);
      if (why == null) {
        volumes.add(v);
      } else {
        events.add(refused("PersistentVolume", v.name(), why));
      }
    }
    List<PersistentVolumeClaim> claims = new ArrayList<>(storage.claims().size());
    for (PersistentVolumeClaim c : storage.claims()) {
      String why = problem(c);
      if (why == null) {
        claims.add(c);
      } else {
        events.add(refused("PersistentVolumeClaim", c.key(), why));
      }
    }
    Storage kept =
        volumes.size() == storage.volumes().size() && claims.size() == storage.claims().size()
            ? storage
            : new Storage(volumes, claims, storage.classes(), storage.csiNodes());
    for (PersistentVolumeClaim c : kept.claims()) {
      if (kept.namesVolumeOfAnother(c)) {
        events.add(
            new SessionResult.Event(
                "PersistentVolumeClaim",
                c.key(),
                "Warning",
                SessionRunner.VOLUME_HELD_BY_ANOTHER_CLAIM,
                "PersistentVolumeClaim "
                    + c.key()
                    + " stays pending: spec.volumeName: "
                    + holding(kept, kept.volume(c.volumeName()))
                    + "; expected a volume no other claim holds"));
      }
    }
    return kept;
  }

  private static String holding(Storage storage, PersistentVolume v) {
    PersistentVolumeClaim holder = storage.claimOf(v.name());
    if (holder != null) {
      return "volume " + v.name() + " is bound to claim " + holder.key();
    }
    return "volume "
        + v.name()
        + " is reserved for claim "
        + v.claimRef().key()
        + (v.claimRef().uid().isEmpty() ? "" : " (uid " + v.claimRef().uid() + ")")
        + " by its spec.claimRef";
  }

  private static String problem(PersistentVolume v) {
    String quantity = v.capacity() == null ? null : ResourceBounds.problem(v.capacity());
    if (quantity != null) {
      return "spec.capacity.storage: " + quantity;
    }
    return phaseProblem(v.phase(), "a volume phase", VOLUME_PHASES);
  }

  private static String problem(PersistentVolumeClaim c) {
    String quantity = c.request() == null ? null : ResourceBounds.problem(c.request());
    if (quantity != null) {
      return "spec.resources.requests.storage: " + quantity;
    }
    return phaseProblem(c.phase(), "a claim phase", CLAIM_PHASES);
  }

  private static String phaseProblem(String phase, String what, List<String> phases) {
    if (phases.contains(phase)) {
      return null;
    }
    return "status.phase: \""
        + Quantity.shown(phase)
        + "\" is not "
        + what
        + "; expected one of "
        + String.join(", ", phases);
  }

  private static SessionResult.Event refused(String kind, String key, String why) {
    String reason =
        why.startsWith("status.phase")
            ? SessionRunner.UNKNOWN_PHASE
            : SessionRunner.RESOURCE_OUT_OF_RANGE;
    return new SessionResult.Event(
        kind, key, "Warning", reason, kind + " " + key + " is not used: " + why);
  }
}
