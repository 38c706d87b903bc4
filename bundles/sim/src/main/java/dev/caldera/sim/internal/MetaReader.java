package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.PodCondition;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.List;

/** Reads the parts every kind shares: metadata, label selectors, conditions. */
final class MetaReader {

  private MetaReader() {}

  /**
   * Reads {@code metadata}. The name must have been checked by the caller.
   *
   * @param namespaced whether the kind lives in a namespace ("default" when none is written)
   */
  static ObjectMeta meta(Fields f, JsonNode metadata, boolean namespaced) throws ScenarioException {
    String name = f.requiredText(metadata.path("name"), "metadata.name");
    String namespace = null;
    if (namespaced) {
      namespace = f.text(metadata.path("namespace"), "metadata.namespace");
      if (namespace == null || namespace.isEmpty()) {
        namespace = "default";
      }
    }
    List<OwnerReference> owners = new ArrayList<>();
    List<JsonNode> refs = f.list(metadata.path("ownerReferences"), "metadata.ownerReferences");
    for (int i = 0; i < refs.size(); i++) {
      String p = "metadata.ownerReferences[" + i + "]";
      JsonNode r = refs.get(i);
      Boolean controller = f.bool(r.path("controller"), p + ".controller");
      owners.add(
          new OwnerReference(
              f.text(r.path("apiVersion"), p + ".apiVersion"),
              f.text(r.path("kind"), p + ".kind"),
              f.text(r.path("name"), p + ".name"),
              f.text(r.path("uid"), p + ".uid"),
              controller != null && controller));
    }
    return new ObjectMeta(
        name,
        namespace,
        f.text(metadata.path("uid"), "metadata.uid"),
        f.time(metadata.path("creationTimestamp"), "metadata.creationTimestamp"),
        f.time(metadata.path("deletionTimestamp"), "metadata.deletionTimestamp"),
        f.stringMap(metadata.path("labels"), "metadata.labels"),
        f.stringMap(metadata.path("annotations"), "metadata.annotations"),
        owners);
  }

  /** A label selector; null when absent (which selects nothing). */
  static LabelSelector selector(Fields f, JsonNode node, String path) throws ScenarioException {
    if (f.object(node, path) == null) {
      return null;
    }
    List<LabelSelectorRequirement> expressions = new ArrayList<>();
    List<JsonNode> exprs = f.list(node.path("matchExpressions"), path + ".matchExpressions");
    for (int i = 0; i < exprs.size(); i++) {
      String p = path + ".matchExpressions[" + i + "]";
      JsonNode e = exprs.get(i);
      expressions.add(
          new LabelSelectorRequirement(
              f.requiredText(e.path("key"), p + ".key"),
              f.requiredText(e.path("operator"), p + ".operator"),
              f.stringList(e.path("values"), p + ".values")));
    }
    return new LabelSelector(
        f.stringMap(node.path("matchLabels"), path + ".matchLabels"), expressions);
  }

  /** A list of pod or pod group conditions. */
  static List<PodCondition> conditions(Fields f, JsonNode node, String path)
      throws ScenarioException {
    List<PodCondition> out = new ArrayList<>();
    List<JsonNode> items = f.list(node, path);
    for (int i = 0; i < items.size(); i++) {
      String p = path + "[" + i + "]";
      JsonNode c = items.get(i);
      out.add(
          new PodCondition(
              f.requiredText(c.path("type"), p + ".type"),
              f.text(c.path("status"), p + ".status"),
              f.text(c.path("reason"), p + ".reason"),
              f.text(c.path("message"), p + ".message"),
              f.time(c.path("lastTransitionTime"), p + ".lastTransitionTime")));
    }
    return out;
  }
}
