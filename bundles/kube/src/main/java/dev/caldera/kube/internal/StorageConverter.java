package dev.caldera.kube.internal;

import static dev.caldera.kube.internal.Meta.list;

import dev.caldera.api.model.CSINode;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.PodVolume;
import dev.caldera.api.model.StorageClass;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts the storage kinds and a pod's volumes to the model. */
final class StorageConverter {

  private static final String BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

  private StorageConverter() {}

  static PersistentVolume volume(io.fabric8.kubernetes.api.model.PersistentVolume v) {
    PersistentVolumeSpec spec = v.getSpec() == null ? new PersistentVolumeSpec() : v.getSpec();
    List<NodeSelectorTerm> affinity = null;
    if (spec.getNodeAffinity() != null && spec.getNodeAffinity().getRequired() != null) {
      affinity = new ArrayList<>();
      for (var t : list(spec.getNodeAffinity().getRequired().getNodeSelectorTerms())) {
        affinity.add(PodConverter.term(t));
      }
    }
    PersistentVolume.ClaimRef ref =
        spec.getClaimRef() == null
            ? null
            : new PersistentVolume.ClaimRef(
                spec.getClaimRef().getNamespace(),
                spec.getClaimRef().getName(),
                spec.getClaimRef().getUid());
    var capacity = spec.getCapacity() == null ? null : spec.getCapacity().get("storage");
    return new PersistentVolume(
        Meta.meta(v.getMetadata()),
        capacity == null ? null : Meta.quantity(capacity.toString()),
        spec.getAccessModes(),
        spec.getStorageClassName(),
        affinity,
        ref,
        spec.getCsi() == null ? null : spec.getCsi().getDriver(),
        spec.getCsi() == null ? null : spec.getCsi().getVolumeHandle(),
        v.getStatus() == null ? null : v.getStatus().getPhase(),
        spec.getVolumeMode());
  }

  static PersistentVolumeClaim claim(io.fabric8.kubernetes.api.model.PersistentVolumeClaim c) {
    PersistentVolumeClaimSpec spec =
        c.getSpec() == null ? new PersistentVolumeClaimSpec() : c.getSpec();
    var meta = Meta.meta(c.getMetadata());
    String className = meta.annotations().get(BETA_CLASS_ANNOTATION);
    var requests = spec.getResources() == null ? null : spec.getResources().getRequests();
    var storage = requests == null ? null : requests.get("storage");
    return new PersistentVolumeClaim(
        meta,
        className != null ? className : spec.getStorageClassName(),
        spec.getAccessModes(),
        storage == null ? null : Meta.quantity(storage.toString()),
        spec.getVolumeName(),
        Meta.selector(spec.getSelector()),
        c.getStatus() == null ? null : c.getStatus().getPhase(),
        spec.getVolumeMode());
  }

  static StorageClass storageClass(io.fabric8.kubernetes.api.model.storage.StorageClass sc) {
    List<NodeSelectorTerm> topologies = new ArrayList<>();
    for (var t : list(sc.getAllowedTopologies())) {
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      for (var e : list(t.getMatchLabelExpressions())) {
        reqs.add(new NodeSelectorRequirement(e.getKey(), "In", e.getValues()));
      }
      topologies.add(new NodeSelectorTerm(reqs, null));
    }
    return new StorageClass(
        Meta.meta(sc.getMetadata()), sc.getProvisioner(), sc.getVolumeBindingMode(), topologies);
  }

  static CSINode csiNode(io.fabric8.kubernetes.api.model.storage.CSINode n) {
    Map<String, Integer> limits = new LinkedHashMap<>();
    if (n.getSpec() != null) {
      for (CSINodeDriver d : list(n.getSpec().getDrivers())) {
        if (d.getAllocatable() != null && d.getAllocatable().getCount() != null) {
          limits.put(d.getName(), d.getAllocatable().getCount());
        }
      }
    }
    return new CSINode(Meta.meta(n.getMetadata()), limits);
  }

  /** A pod's volumes: claims, generic ephemeral volumes and the disks that cannot be shared. */
  static List<PodVolume> podVolumes(String podName, List<Volume> volumes) {
    List<PodVolume> out = new ArrayList<>(volumes.size());
    for (Volume v : volumes) {
      if (v.getPersistentVolumeClaim() != null) {
        out.add(
            PodVolume.claim(
                v.getName(),
                v.getPersistentVolumeClaim().getClaimName(),
                Boolean.TRUE.equals(v.getPersistentVolumeClaim().getReadOnly())));
      } else if (v.getEphemeral() != null) {
        out.add(
            new PodVolume(
                v.getName(), PodVolume.EPHEMERAL, podName + "-" + v.getName(), "", false));
      } else if (v.getGcePersistentDisk() != null) {
        out.add(
            new PodVolume(
                v.getName(),
                PodVolume.GCE_PERSISTENT_DISK,
                "",
                v.getGcePersistentDisk().getPdName(),
                Boolean.TRUE.equals(v.getGcePersistentDisk().getReadOnly())));
      } else if (v.getAwsElasticBlockStore() != null) {
        out.add(
            new PodVolume(
                v.getName(),
                PodVolume.AWS_ELASTIC_BLOCK_STORE,
                "",
                v.getAwsElasticBlockStore().getVolumeID(),
                Boolean.TRUE.equals(v.getAwsElasticBlockStore().getReadOnly())));
      } else if (v.getIscsi() != null) {
        out.add(
            new PodVolume(
                v.getName(),
                PodVolume.ISCSI,
                "",
                v.getIscsi().getIqn(),
                Boolean.TRUE.equals(v.getIscsi().getReadOnly())));
      } else {
        out.add(new PodVolume(v.getName(), PodVolume.OTHER, "", "", false));
      }
    }
    return out;
  }
}
