package dev.caldera.kube.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replaces the names in exported manifests by made-up ones, the same name always by the same
 * replacement, in every place where one object names another (a pod's node, pod group and claims, a
 * pod group's queue, a queue's parent, a claim's volume, a volume's claim, owners, the node name
 * label). Names are given in the order objects come, which the exporter keeps stable.
 */
final class Anonymizer {

  /** Queues whose names mean something to the scheduler. */
  private static final Set<String> KEPT_QUEUES = Set.of("root", "default");

  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";
  private static final String GROUP_NAME = "scheduling.k8s.io/group-name";
  private static final String GROUP_NAME_VOLCANO = "scheduling.volcano.sh/group-name";

  private final Map<String, Map<String, String>> names = new HashMap<>();

  /** The replacement for {@code name} of kind {@code kind} ({@code node}, {@code ns}, ...). */
  private String name(String kind, String name) {
    if (name == null || name.isEmpty()) {
      return name;
    }
    if (kind.equals("queue") && KEPT_QUEUES.contains(name)) {
      return name;
    }
    Map<String, String> byName = names.computeIfAbsent(kind, k -> new HashMap<>());
    // Zero-padded so that the made-up names sort as the real ones did (the export is sorted by
    // name, and ties between equal nodes or pods break on names).
    return byName.computeIfAbsent(
        name, n -> String.format(java.util.Locale.ROOT, "%s-%06d", kind, byName.size() + 1));
  }

  /** The made-up name of the node {@code name}. */
  String node(String name) {
    return name("node", name);
  }

  /** Renames {@code object} (a manifest of {@code kind}) in place. */
  @SuppressWarnings("unchecked")
  void rename(String kind, Map<String, Object> object) {
    Map<String, Object> meta = map(object, "metadata");
    String ns = (String) meta.get("namespace");
    if (ns != null) {
      meta.put("namespace", name("ns", ns));
    }
    Map<String, Object> spec = map(object, "spec");
    switch (kind) {
      case "Namespace" -> {
        meta.put("name", name("ns", (String) meta.get("name")));
        Map<String, Object> labels = map(meta, "labels");
        if (labels.get(NAMESPACE_NAME) instanceof String n) {
          labels.put(NAMESPACE_NAME, name("ns", n));
        }
      }
      case "Node", "CSINode" -> {
        meta.put("name", name("node", (String) meta.get("name")));
        Map<String, Object> labels = map(meta, "labels");
        if (labels.get(HOSTNAME) instanceof String host) {
          labels.put(HOSTNAME, name("node", host));
        }
      }
      case "Queue" -> {
        meta.put("name", name("queue", (String) meta.get("name")));
        if (spec.get("parent") instanceof String parent) {
          spec.put("parent", name("queue", parent));
        }
      }
      case "PodGroup" -> {
        meta.put("name", name("podgroup", (String) meta.get("name")));
        if (spec.get("queue") instanceof String queue) {
          spec.put("queue", name("queue", queue));
        }
      }
      case "PersistentVolume" -> {
        meta.put("name", name("volume", (String) meta.get("name")));
        if (spec.get("claimRef") instanceof Map<?, ?> r) {
          Map<String, Object> ref = (Map<String, Object>) r;
          if (ref.get("name") instanceof String claim) {
            ref.put("name", name("claim", claim));
          }
          if (ref.get("namespace") instanceof String claimNs) {
            ref.put("namespace", name("ns", claimNs));
          }
        }
        if (spec.get("nodeAffinity") instanceof Map<?, ?> affinity) {
          renameNodeTerms(affinity.get("required"));
        }
      }
      case "PersistentVolumeClaim" -> {
        meta.put("name", name("claim", (String) meta.get("name")));
        if (spec.get("volumeName") instanceof String volume) {
          spec.put("volumeName", name("volume", volume));
        }
      }
      case "Pod" -> {
        meta.put("name", name("pod", (String) meta.get("name")));
        if (spec.get("nodeName") instanceof String node) {
          spec.put("nodeName", name("node", node));
        }
        Map<String, Object> annotations = map(meta, "annotations");
        for (String key : List.of(GROUP_NAME, GROUP_NAME_VOLCANO)) {
          if (annotations.get(key) instanceof String group) {
            annotations.put(key, name("podgroup", group));
          }
        }
        if (spec.get("nodeSelector") instanceof Map<?, ?> selector
            && selector.get(HOSTNAME) instanceof String host) {
          ((Map<String, Object>) selector).put(HOSTNAME, name("node", host));
        }
        if (spec.get("affinity") instanceof Map<?, ?> affinity
            && affinity.get("nodeAffinity") instanceof Map<?, ?> nodeAffinity) {
          renameNodeTerms(nodeAffinity.get("requiredDuringSchedulingIgnoredDuringExecution"));
          if (nodeAffinity.get("preferredDuringSchedulingIgnoredDuringExecution")
              instanceof List<?> preferred) {
            for (Object p : preferred) {
              if (p instanceof Map<?, ?> term) {
                renameNodeTerms(Map.of("nodeSelectorTerms", List.of(term.get("preference"))));
              }
            }
          }
        }
        if (spec.get("volumes") instanceof List<?> volumes) {
          for (Object v : volumes) {
            if (v instanceof Map<?, ?> volume
                && volume.get("persistentVolumeClaim") instanceof Map<?, ?> pvc
                && pvc.get("claimName") instanceof String claim) {
              ((Map<String, Object>) pvc).put("claimName", name("claim", claim));
            }
          }
        }
      }
      default ->
          meta.put(
              "name", name(kind.toLowerCase(java.util.Locale.ROOT), (String) meta.get("name")));
    }
    // Condition messages name pods and nodes (the scheduler's own reasons); nothing reads them.
    if (object.get("status") instanceof Map<?, ?> status
        && status.get("conditions") instanceof List<?> conditions) {
      for (Object c : conditions) {
        if (c instanceof Map<?, ?> condition) {
          condition.remove("message");
        }
      }
    }
    if (meta.get("ownerReferences") instanceof List<?> owners) {
      for (Object o : owners) {
        if (o instanceof Map<?, ?> owner && owner.get("name") instanceof String n) {
          ((Map<String, Object>) owner).put("name", name("owner", n));
        }
      }
    }
    if (meta.get("labels") instanceof Map<?, ?> labels && labels.isEmpty()) {
      meta.remove("labels");
    }
    if (meta.get("annotations") instanceof Map<?, ?> a && a.isEmpty()) {
      meta.remove("annotations");
    }
    if (spec.isEmpty()) {
      object.remove("spec");
    }
  }

  /**
   * Renames node names in a node selector ({@code nodeSelectorTerms}): values of the hostname label
   * in match expressions and of {@code metadata.name} in match fields.
   */
  @SuppressWarnings("unchecked")
  private void renameNodeTerms(Object selector) {
    if (!(selector instanceof Map<?, ?> s)
        || !(s.get("nodeSelectorTerms") instanceof List<?> terms)) {
      return;
    }
    for (Object t : terms) {
      if (!(t instanceof Map<?, ?> term)) {
        continue;
      }
      for (String list : List.of("matchExpressions", "matchFields")) {
        if (!(term.get(list) instanceof List<?> requirements)) {
          continue;
        }
        for (Object r : requirements) {
          if (r instanceof Map<?, ?> req
              && (HOSTNAME.equals(req.get("key")) || "metadata.name".equals(req.get("key")))
              && req.get("values") instanceof List<?> values) {
            ((Map<String, Object>) req)
                .put(
                    "values",
                    values.stream().map(v -> v instanceof String n ? name("node", n) : v).toList());
          }
        }
      }
    }
  }

  /** {@code parent.key} as a map, created empty when absent (removed again by the caller). */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> parent, String key) {
    Object v = parent.get(key);
    if (v instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    Map<String, Object> created = new java.util.LinkedHashMap<>();
    parent.put(key, created);
    return created;
  }
}
