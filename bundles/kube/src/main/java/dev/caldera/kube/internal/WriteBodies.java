package dev.caldera.kube.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.fabric8.kubernetes.api.model.ObjectReference;

/**
 * The JSON bodies of the writer's most frequent requests, a bind and an event per pod, written
 * straight as text (strings escaped by Jackson's encoder): building a model object or a map and
 * handing it to an object mapper cost more CPU than the rest of the request (issue 32). {@code
 * WriteBodiesTest} reads each body back as the model class the API server expects.
 */
final class WriteBodies {

  private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

  private WriteBodies() {}

  /**
   * A {@code v1 Binding} of the pod to the node; the uid makes the API server refuse to bind a pod
   * re-created under the same name.
   */
  static String binding(String namespace, String name, String uid, String node) {
    StringBuilder out = new StringBuilder(160 + name.length() + node.length());
    out.append("{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":");
    string(out, name);
    out.append(",\"namespace\":");
    string(out, namespace);
    out.append(",\"uid\":");
    string(out, uid);
    out.append("},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":");
    string(out, node);
    return out.append("}}").toString();
  }

  /** An {@code events.k8s.io/v1 Event}; {@code eventTime} is a MicroTime text. */
  static String event(
      String namespace,
      String name,
      String eventTime,
      String controller,
      String instance,
      String action,
      String reason,
      String type,
      String note,
      ObjectReference regarding) {
    StringBuilder out = new StringBuilder(384 + note.length());
    out.append("{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":");
    string(out, name);
    out.append(",\"namespace\":");
    string(out, namespace);
    out.append("},\"eventTime\":");
    string(out, eventTime);
    field(out, "reportingController", controller);
    field(out, "reportingInstance", instance);
    field(out, "action", action);
    field(out, "reason", reason);
    field(out, "type", type);
    field(out, "note", note);
    out.append(",\"regarding\":{");
    out.append("\"apiVersion\":");
    string(out, regarding.getApiVersion());
    field(out, "kind", regarding.getKind());
    field(out, "namespace", regarding.getNamespace());
    field(out, "name", regarding.getName());
    field(out, "uid", regarding.getUid());
    return out.append("}}").toString();
  }

  /** {@code ,"key":"value"}, nothing for a null value. */
  private static void field(StringBuilder out, String key, String value) {
    if (value == null) {
      return;
    }
    out.append(",\"").append(key).append("\":");
    string(out, value);
  }

  private static void string(StringBuilder out, String value) {
    out.append('"');
    ENCODER.quoteAsString(value, out);
    out.append('"');
  }
}
