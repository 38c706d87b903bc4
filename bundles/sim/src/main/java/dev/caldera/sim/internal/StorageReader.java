package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.model.CSINode;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.PodVolume;
import dev.caldera.api.model.StorageClass;
import dev.caldera.api.resource.Quantity;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the storage kinds (v1 PersistentVolume and PersistentVolumeClaim, storage.k8s.io/v1
 * StorageClass and CSINode) and a pod's {@code spec.volumes}. Fields scheduling does not read are
 * accepted and ignored.
 */
final class StorageReader {

  private static final List<String> ACCESS_MODES =
      List.of("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod");
  private static final List<String> VOLUME_MODES = List.of("Filesystem", "Block");
  private static final List<String> BINDING_MODES =
      List.of(StorageClass.IMMEDIATE, StorageClass.WAIT_FOR_FIRST_CONSUMER);
  private static final List<String> VOLUME_PHASES =
      List.of("Pending", "Available", "Bound", "Released", "Failed");
  private static final List<String> CLAIM_PHASES = List.of("Pending", "Bound", "Lost");
  private static final String BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

  private StorageReader() {}

  static PersistentVolume volume(Fields f, JsonNode obj, ObjectMeta meta) throws ScenarioException {
    JsonNode spec = obj.path("spec");
    f.object(spec, "spec");
    f.object(obj.path("status"), "status");
    List<NodeSelectorTerm> affinity = null;
    JsonNode nodeAffinity = f.object(spec.path("nodeAffinity"), "spec.nodeAffinity");
    if (nodeAffinity != null) {
      JsonNode required = f.object(nodeAffinity.path("required"), "spec.nodeAffinity.required");
      if (required != null) {
        affinity = new ArrayList<>();
        String p = "spec.nodeAffinity.required.nodeSelectorTerms";
        List<JsonNode> terms = f.list(required.path("nodeSelectorTerms"), p);
        for (int i = 0; i < terms.size(); i++) {
          affinity.add(PodReader.nodeSelectorTerm(f, terms.get(i), p + "[" + i + "]"));
        }
      }
    }
    PersistentVolume.ClaimRef claimRef = null;
    JsonNode ref = f.object(spec.path("claimRef"), "spec.claimRef");
    if (ref != null) {
      claimRef =
          new PersistentVolume.ClaimRef(
              f.text(ref.path("namespace"), "spec.claimRef.namespace"),
              f.requiredText(ref.path("name"), "spec.claimRef.name"),
              f.text(ref.path("uid"), "spec.claimRef.uid"));
    }
    JsonNode csi = f.object(spec.path("csi"), "spec.csi");
    return new PersistentVolume(
        meta,
        size(f, spec.path("capacity").path("storage"), "spec.capacity.storage"),
        accessModes(f, spec.path("accessModes"), "spec.accessModes"),
        f.text(spec.path("storageClassName"), "spec.storageClassName"),
        affinity,
        claimRef,
        csi == null ? null : f.requiredText(csi.path("driver"), "spec.csi.driver"),
        csi == null ? null : f.text(csi.path("volumeHandle"), "spec.csi.volumeHandle"),
        phase(f, obj, VOLUME_PHASES),
        volumeMode(f, spec));
  }

  static PersistentVolumeClaim claim(Fields f, JsonNode obj, ObjectMeta meta)
      throws ScenarioException {
    JsonNode spec = obj.path("spec");
    f.object(spec, "spec");
    f.object(obj.path("status"), "status");
    String className = meta.annotations().get(BETA_CLASS_ANNOTATION);
    if (className == null) {
      className = f.text(spec.path("storageClassName"), "spec.storageClassName");
    }
    return new PersistentVolumeClaim(
        meta,
        className,
        accessModes(f, spec.path("accessModes"), "spec.accessModes"),
        size(
            f,
            spec.path("resources").path("requests").path("storage"),
            "spec.resources.requests.storage"),
        f.text(spec.path("volumeName"), "spec.volumeName"),
        MetaReader.selector(f, spec.path("selector"), "spec.selector"),
        phase(f, obj, CLAIM_PHASES),
        volumeMode(f, spec));
  }

  static StorageClass storageClass(Fields f, JsonNode obj, ObjectMeta meta)
      throws ScenarioException {
    List<NodeSelectorTerm> topologies = new ArrayList<>();
    List<JsonNode> terms = f.list(obj.path("allowedTopologies"), "allowedTopologies");
    for (int i = 0; i < terms.size(); i++) {
      String p = "allowedTopologies[" + i + "].matchLabelExpressions";
      List<JsonNode> exprs = f.list(terms.get(i).path("matchLabelExpressions"), p);
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      for (int j = 0; j < exprs.size(); j++) {
        String q = p + "[" + j + "]";
        reqs.add(
            new NodeSelectorRequirement(
                f.requiredText(exprs.get(j).path("key"), q + ".key"),
                "In",
                f.stringList(exprs.get(j).path("values"), q + ".values")));
      }
      topologies.add(new NodeSelectorTerm(reqs, null));
    }
    return new StorageClass(
        meta,
        f.requiredText(obj.path("provisioner"), "provisioner"),
        f.oneOf(obj.path("volumeBindingMode"), "volumeBindingMode", BINDING_MODES),
        topologies);
  }

  static CSINode csiNode(Fields f, JsonNode obj, ObjectMeta meta) throws ScenarioException {
    Map<String, Integer> limits = new LinkedHashMap<>();
    List<JsonNode> drivers = f.list(obj.path("spec").path("drivers"), "spec.drivers");
    for (int i = 0; i < drivers.size(); i++) {
      String p = "spec.drivers[" + i + "]";
      String name = f.requiredText(drivers.get(i).path("name"), p + ".name");
      Integer count =
          f.integer(drivers.get(i).path("allocatable").path("count"), p + ".allocatable.count");
      if (count != null) {
        if (count < 0) {
          throw f.error(p + ".allocatable.count", count + " is negative (expected 0 or more)");
        }
        limits.put(name, count);
      }
    }
    return new CSINode(meta, limits);
  }

  /** A pod's {@code spec.volumes}: claims, generic ephemeral volumes and conflicting disks. */
  static List<PodVolume> podVolumes(Fields f, JsonNode node, String podName)
      throws ScenarioException {
    List<PodVolume> out = new ArrayList<>();
    List<JsonNode> items = f.list(node, "spec.volumes");
    for (int i = 0; i < items.size(); i++) {
      String p = "spec.volumes[" + i + "]";
      JsonNode v = items.get(i);
      String name = f.requiredText(v.path("name"), p + ".name");
      JsonNode pvc = f.object(v.path("persistentVolumeClaim"), p + ".persistentVolumeClaim");
      JsonNode gce = f.object(v.path("gcePersistentDisk"), p + ".gcePersistentDisk");
      JsonNode ebs = f.object(v.path("awsElasticBlockStore"), p + ".awsElasticBlockStore");
      JsonNode iscsi = f.object(v.path("iscsi"), p + ".iscsi");
      if (pvc != null) {
        out.add(
            PodVolume.claim(
                name,
                f.requiredText(pvc.path("claimName"), p + ".persistentVolumeClaim.claimName"),
                readOnly(f, pvc, p + ".persistentVolumeClaim")));
      } else if (f.object(v.path("ephemeral"), p + ".ephemeral") != null) {
        out.add(new PodVolume(name, PodVolume.EPHEMERAL, podName + "-" + name, "", false));
      } else if (gce != null) {
        out.add(disk(f, name, PodVolume.GCE_PERSISTENT_DISK, gce, "pdName", p));
      } else if (ebs != null) {
        out.add(disk(f, name, PodVolume.AWS_ELASTIC_BLOCK_STORE, ebs, "volumeID", p));
      } else if (iscsi != null) {
        out.add(disk(f, name, PodVolume.ISCSI, iscsi, "iqn", p));
      } else {
        out.add(new PodVolume(name, PodVolume.OTHER, "", "", false));
      }
    }
    return out;
  }

  private static PodVolume disk(
      Fields f, String name, String type, JsonNode source, String idField, String path)
      throws ScenarioException {
    String p = path + "." + type;
    return new PodVolume(
        name,
        type,
        "",
        f.requiredText(source.path(idField), p + "." + idField),
        readOnly(f, source, p));
  }

  private static boolean readOnly(Fields f, JsonNode source, String path) throws ScenarioException {
    Boolean b = f.bool(source.path("readOnly"), path + ".readOnly");
    return b != null && b;
  }

  private static List<String> accessModes(Fields f, JsonNode node, String path)
      throws ScenarioException {
    List<String> modes = f.stringList(node, path);
    for (int i = 0; i < modes.size(); i++) {
      if (!ACCESS_MODES.contains(modes.get(i))) {
        throw f.error(
            path + "[" + i + "]",
            "\""
                + modes.get(i)
                + "\" is not an access mode (expected one of "
                + String.join(", ", ACCESS_MODES)
                + ")");
      }
    }
    return modes;
  }

  /** A volume's capacity or a claim's request: a quantity of at least 0. */
  private static Quantity size(Fields f, JsonNode node, String path) throws ScenarioException {
    Quantity q = f.quantity(node, path);
    if (q.amount().signum() < 0) {
      throw f.error(path, Quantity.shown(q.toString()) + " is negative (expected 0 or more)");
    }
    return q;
  }

  /** {@code status.phase}: one of {@code phases}, or absent (empty counts as absent). */
  private static String phase(Fields f, JsonNode obj, List<String> phases)
      throws ScenarioException {
    JsonNode node = obj.path("status").path("phase");
    String s = f.text(node, "status.phase");
    return s == null || s.isEmpty() ? s : f.oneOf(node, "status.phase", phases);
  }

  private static String volumeMode(Fields f, JsonNode spec) throws ScenarioException {
    return f.oneOf(spec.path("volumeMode"), "spec.volumeMode", VOLUME_MODES);
  }
}
