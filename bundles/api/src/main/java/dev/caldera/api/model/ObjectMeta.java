package dev.caldera.api.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes object metadata. Absent fields are empty collections, never null; a missing {@code
 * creationTimestamp} is {@link Instant#EPOCH} so that all such objects are equally old.
 */
public record ObjectMeta(
    String name,
    String namespace,
    String uid,
    Instant creationTimestamp,
    Instant deletionTimestamp,
    Map<String, String> labels,
    Map<String, String> annotations,
    List<OwnerReference> ownerReferences) {

  public ObjectMeta {
    namespace = namespace == null ? "" : namespace;
    uid =
        uid == null || uid.isEmpty() ? (namespace.isEmpty() ? name : namespace + "-" + name) : uid;
    creationTimestamp = creationTimestamp == null ? Instant.EPOCH : creationTimestamp;
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    ownerReferences = ownerReferences == null ? List.of() : List.copyOf(ownerReferences);
  }

  /** Metadata with only a name (and namespace); everything else defaulted. */
  public static ObjectMeta named(String namespace, String name) {
    return new ObjectMeta(name, namespace, null, null, null, null, null, null);
  }

  /** This metadata with other annotations. */
  public ObjectMeta withAnnotations(Map<String, String> annotations) {
    return new ObjectMeta(
        name,
        namespace,
        uid,
        creationTimestamp,
        deletionTimestamp,
        labels,
        annotations,
        ownerReferences);
  }

  /** {@code namespace/name}, or the name for cluster-scoped objects. */
  public String key() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** An annotation, or else the label of the same key, or null. */
  public String annotationOrLabel(String key) {
    String v = annotations.get(key);
    return v != null ? v : labels.get(key);
  }
}
