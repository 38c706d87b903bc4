package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.resource.Quantity;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a scenario's {@code objects:} list, kind by kind, in manifest order. */
public final class ObjectsReader {

  private enum Kind {
    NODE("Node", false, "v1"),
    POD("Pod", true, "v1"),
    NAMESPACE("Namespace", false, "v1"),
    RESOURCE_QUOTA("ResourceQuota", true, "v1"),
    QUEUE("Queue", false, "scheduling.volcano.sh/v1beta1"),
    POD_GROUP("PodGroup", true, "scheduling.volcano.sh/v1beta1"),
    PRIORITY_CLASS("PriorityClass", false, "scheduling.k8s.io/v1", "scheduling.k8s.io/v1beta1"),
    PDB("PodDisruptionBudget", true, "policy/v1", "policy/v1beta1"),
    PERSISTENT_VOLUME("PersistentVolume", false, "v1"),
    PERSISTENT_VOLUME_CLAIM("PersistentVolumeClaim", true, "v1"),
    STORAGE_CLASS("StorageClass", false, "storage.k8s.io/v1"),
    CSI_NODE("CSINode", false, "storage.k8s.io/v1");

    final String name;
    final boolean namespaced;
    final List<String> apiVersions;

    Kind(String name, boolean namespaced, String... apiVersions) {
      this.name = name;
      this.namespaced = namespaced;
      this.apiVersions = List.of(apiVersions);
    }

    static Kind of(String name) {
      for (Kind k : values()) {
        if (k.name.equals(name)) {
          return k;
        }
      }
      return null;
    }
  }

  private static final List<String> KIND_NAMES =
      List.of(
          "Node",
          "Pod",
          "PodGroup",
          "Queue",
          "PriorityClass",
          "PodDisruptionBudget",
          "ResourceQuota",
          "Namespace",
          "PersistentVolume",
          "PersistentVolumeClaim",
          "StorageClass",
          "CSINode");

  private ObjectsReader() {}

  /**
   * Converts every object.
   *
   * @throws ScenarioException on an unknown kind, a wrong field, or two objects of the same kind
   *     and name
   */
  public static StateBuilder read(String file, List<JsonNode> objects) throws ScenarioException {
    StateBuilder b = new StateBuilder();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < objects.size(); i++) {
      JsonNode obj = objects.get(i);
      Fields at = new Fields(file, "objects[" + i + "]");
      if (!obj.isObject()) {
        throw at.error("", "expected a Kubernetes object (a mapping), got " + Fields.describe(obj));
      }
      String kindName = at.requiredText(obj.path("kind"), "kind");
      Kind kind = Kind.of(kindName);
      if (kind == null) {
        throw new ScenarioException(
            file
                + ": objects["
                + i
                + "]: unknown kind \""
                + kindName
                + "\" (expected one of "
                + String.join(", ", KIND_NAMES)
                + ")");
      }
      Fields f = at.forObject("objects[" + i + "] (" + kind.name + ")");
      String apiVersion = f.requiredText(obj.path("apiVersion"), "apiVersion");
      if (!kind.apiVersions.contains(apiVersion)) {
        throw f.error(
            "apiVersion",
            "\""
                + apiVersion
                + "\" is not an apiVersion of "
                + kind.name
                + " (expected "
                + String.join(" or ", kind.apiVersions)
                + ")");
      }
      JsonNode metadata = f.object(obj.path("metadata"), "metadata");
      if (metadata == null) {
        throw f.error("metadata", "missing (expected a mapping with a name)");
      }
      String name = f.requiredText(metadata.path("name"), "metadata.name");
      if (kind.namespaced) {
        String ns = f.text(metadata.path("namespace"), "metadata.namespace");
        name = (ns == null || ns.isEmpty() ? "default" : ns) + "/" + name;
      }
      f = f.forObject(kind.name + " " + name);
      ObjectMeta meta = MetaReader.meta(f, metadata, kind.namespaced);
      if (!seen.add(kind.name + " " + meta.key())) {
        throw f.error("metadata.name", "duplicate: another " + kind.name + " has the same name");
      }
      switch (kind) {
        case NODE -> b.nodes.add(NodeReader.node(f, obj, meta));
        case POD -> {
          b.pods.add(PodReader.pod(f, obj, meta));
          b.podFields.put(meta.key(), f);
        }
        case QUEUE -> b.queues.add(VolcanoReader.queue(f, obj, meta));
        case POD_GROUP -> b.podGroups.add(VolcanoReader.podGroup(f, obj, meta));
        case PRIORITY_CLASS -> {
          b.priorityClasses.add(priorityClass(f, obj, meta));
          String policy = f.text(obj.path("preemptionPolicy"), "preemptionPolicy");
          if (policy != null && !policy.isEmpty()) {
            b.preemptionPolicies.put(meta.name(), policy);
          }
        }
        case PDB -> b.pdbs.add(pdb(f, obj, meta));
        case RESOURCE_QUOTA -> b.quotas.add(resourceQuota(f, obj, meta));
        case NAMESPACE -> b.namespaces.add(new Namespace(meta));
        case PERSISTENT_VOLUME -> b.volumes.add(StorageReader.volume(f, obj, meta));
        case PERSISTENT_VOLUME_CLAIM -> b.claims.add(StorageReader.claim(f, obj, meta));
        case STORAGE_CLASS -> b.storageClasses.add(StorageReader.storageClass(f, obj, meta));
        case CSI_NODE -> b.csiNodes.add(StorageReader.csiNode(f, obj, meta));
        default -> throw new IllegalStateException(kind.name);
      }
    }
    return b;
  }

  private static PriorityClass priorityClass(Fields f, JsonNode obj, ObjectMeta meta)
      throws ScenarioException {
    Integer value = f.integer(obj.path("value"), "value");
    if (value == null) {
      throw f.error("value", "missing (expected an integer priority)");
    }
    Boolean globalDefault = f.bool(obj.path("globalDefault"), "globalDefault");
    return new PriorityClass(meta.name(), value, globalDefault != null && globalDefault);
  }

  private static PodDisruptionBudget pdb(Fields f, JsonNode obj, ObjectMeta meta)
      throws ScenarioException {
    JsonNode spec = obj.path("spec");
    JsonNode status = obj.path("status");
    f.object(spec, "spec");
    f.object(status, "status");
    String minAvailable = f.intOrPercent(spec.path("minAvailable"), "spec.minAvailable");
    String maxUnavailable = f.intOrPercent(spec.path("maxUnavailable"), "spec.maxUnavailable");
    if (minAvailable != null && maxUnavailable != null) {
      throw f.error("spec", "minAvailable and maxUnavailable cannot both be set");
    }
    Integer allowed = f.integer(status.path("disruptionsAllowed"), "status.disruptionsAllowed");
    JsonNode disrupted = f.object(status.path("disruptedPods"), "status.disruptedPods");
    List<String> disruptedPods = new ArrayList<>();
    if (disrupted != null) {
      disrupted.properties().forEach(e -> disruptedPods.add(e.getKey()));
    }
    return new PodDisruptionBudget(
        meta,
        MetaReader.selector(f, spec.path("selector"), "spec.selector"),
        allowed == null ? 0 : allowed,
        Set.copyOf(disruptedPods));
  }

  private static ResourceQuota resourceQuota(Fields f, JsonNode obj, ObjectMeta meta)
      throws ScenarioException {
    Map<String, Quantity> specHard = f.quantities(obj.path("spec").path("hard"), "spec.hard");
    Map<String, Quantity> hard = f.quantities(obj.path("status").path("hard"), "status.hard");
    Map<String, Quantity> used = f.quantities(obj.path("status").path("used"), "status.used");
    // The quota controller copies spec.hard to status.hard; a manifest may give only the spec.
    return new ResourceQuota(meta, hard != null ? hard : specHard, used);
  }
}
