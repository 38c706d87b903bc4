package dev.caldera.api.model;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The storage objects of a snapshot, with lookups by name: PersistentVolumes,
 * PersistentVolumeClaims (by {@code namespace/name}), StorageClasses and CSINodes. Lists are in the
 * order the source gives them. Immutable.
 */
public final class Storage {

  /** No storage objects. */
  public static final Storage EMPTY = new Storage(null, null, null, null);

  private final List<PersistentVolume> volumes;
  private final List<PersistentVolumeClaim> claims;
  private final List<StorageClass> classes;
  private final List<CSINode> csiNodes;
  private final Map<String, PersistentVolume> volumesByName;
  private final Map<String, PersistentVolumeClaim> claimsByKey;
  private final Map<String, StorageClass> classesByName;
  private final Map<String, CSINode> csiNodesByName;
  private final Map<String, PersistentVolumeClaim> claimsByVolume;

  /** The storage objects given; null lists are empty. */
  public Storage(
      List<PersistentVolume> volumes,
      List<PersistentVolumeClaim> claims,
      List<StorageClass> classes,
      List<CSINode> csiNodes) {
    this.volumes = volumes == null ? List.of() : List.copyOf(volumes);
    this.claims = claims == null ? List.of() : List.copyOf(claims);
    this.classes = classes == null ? List.of() : List.copyOf(classes);
    this.csiNodes = csiNodes == null ? List.of() : List.copyOf(csiNodes);
    this.volumesByName = index(this.volumes, PersistentVolume::name);
    this.claimsByKey = index(this.claims, PersistentVolumeClaim::key);
    this.classesByName = index(this.classes, StorageClass::name);
    this.csiNodesByName = index(this.csiNodes, CSINode::name);
    this.claimsByVolume = claimsByVolume(this.volumes, this.claims);
  }

  public List<PersistentVolume> volumes() {
    return volumes;
  }

  public List<PersistentVolumeClaim> claims() {
    return claims;
  }

  public List<StorageClass> classes() {
    return classes;
  }

  public List<CSINode> csiNodes() {
    return csiNodes;
  }

  /** Whether there is no storage object at all. */
  public boolean isEmpty() {
    return volumes.isEmpty() && claims.isEmpty() && classes.isEmpty() && csiNodes.isEmpty();
  }

  /** A volume by name, or null. */
  public PersistentVolume volume(String name) {
    return volumesByName.get(name);
  }

  /** A claim by {@code namespace/name}, or null. */
  public PersistentVolumeClaim claim(String key) {
    return claimsByKey.get(key);
  }

  /** A class by name, or null. */
  public StorageClass storageClass(String name) {
    return classesByName.get(name);
  }

  /** The CSINode of a node, or null. */
  public CSINode csiNode(String name) {
    return csiNodesByName.get(name);
  }

  /**
   * The claim that holds the volume {@code volumeName}: the claim its {@code spec.claimRef} names
   * (namespace and name, and uid when the reference has one), or, for a volume without a claimRef,
   * the first claim in {@code namespace/name} order whose {@code spec.volumeName} names it. Null
   * when no claim holds it (also for a volume that does not exist).
   */
  public PersistentVolumeClaim claimOf(String volumeName) {
    return claimsByVolume.get(volumeName);
  }

  /**
   * Whether {@code claim} names a volume ({@code spec.volumeName}) that another claim holds ({@link
   * #claimOf}): Kubernetes leaves such a claim pending, unbound.
   */
  public boolean namesVolumeOfAnother(PersistentVolumeClaim claim) {
    if (!claim.bound() || volume(claim.volumeName()) == null) {
      return false;
    }
    PersistentVolumeClaim holder = claimOf(claim.volumeName());
    return holder == null || !holder.key().equals(claim.key());
  }

  private static Map<String, PersistentVolumeClaim> claimsByVolume(
      List<PersistentVolume> volumes, List<PersistentVolumeClaim> claims) {
    Map<String, PersistentVolumeClaim> firstByKey = new HashMap<>();
    Map<String, PersistentVolumeClaim> byKey = new HashMap<>();
    for (PersistentVolumeClaim c : claims) {
      byKey.putIfAbsent(c.key(), c);
      if (c.bound()) {
        firstByKey.merge(c.volumeName(), c, (a, b) -> a.key().compareTo(b.key()) <= 0 ? a : b);
      }
    }
    Map<String, PersistentVolumeClaim> out = new HashMap<>();
    for (PersistentVolume v : volumes) {
      PersistentVolume.ClaimRef ref = v.claimRef();
      PersistentVolumeClaim holder;
      if (ref == null) {
        holder = firstByKey.get(v.name());
      } else {
        holder = byKey.get(ref.key());
        if (holder != null && !ref.uid().isEmpty() && !ref.uid().equals(holder.metadata().uid())) {
          holder = null;
        }
      }
      if (holder != null) {
        out.putIfAbsent(v.name(), holder);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static <T> Map<String, T> index(List<T> items, Function<T, String> key) {
    Map<String, T> m = new LinkedHashMap<>();
    for (T t : items) {
      m.putIfAbsent(key.apply(t), t);
    }
    return Collections.unmodifiableMap(m);
  }
}
