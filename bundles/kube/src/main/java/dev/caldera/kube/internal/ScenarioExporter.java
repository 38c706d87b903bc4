package dev.caldera.kube.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.framework.loop.ClusterExport;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Writes what the informers hold as a scenario file: the objects as the API server sent them, less
 * what only the server needs (managed fields, resource versions, the last applied configuration),
 * kinds in the order the scenario format lists them and objects sorted by namespace and name, so
 * two exports of one cluster state are the same text.
 */
public final class ScenarioExporter {

  /** Informer name → kind, in the order the objects are written (referenced before referrers). */
  private static final Map<String, String> KINDS = kinds();

  /** Annotation prefixes some plugin or the loader reads; the rest goes with {@code dropUnread}. */
  private static final List<String> READ_ANNOTATIONS =
      List.of(
          "volcano.sh/",
          "scheduling.k8s.io/",
          "scheduling.volcano.sh/",
          "volume.kubernetes.io/",
          "volume.beta.kubernetes.io/",
          "pv.kubernetes.io/",
          // A draining queue (sessions evict what runs of it).
          dev.caldera.framework.loop.QueueLifecycle.DRAIN_ANNOTATION);

  /** What a container says that no plugin reads, and that may hold secrets (the environment). */
  private static final Set<String> UNREAD_CONTAINER_FIELDS =
      Set.of(
          "env",
          "envFrom",
          "command",
          "args",
          "workingDir",
          "livenessProbe",
          "readinessProbe",
          "startupProbe",
          "lifecycle");

  private static final Set<String> READ_POD_STATUS =
      Set.of("phase", "conditions", "nominatedNodeName");

  /**
   * Writes the document: the same text as fabric8's {@code asYaml}, several times faster on a large
   * cluster (it is one mapper, made once).
   */
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** Writes the document as JSON, for {@link ClusterExport.Request#json()}. */
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Function<String, List<HasMetadata>> informers;
  private final KubernetesSerialization serialization;
  private final Set<String> schedulerNames;
  private final Map<String, NodeMetrics> nodeMetrics;

  /**
   * @param informers informer name ({@code nodes}, {@code pods}, ...) → what it listed
   * @param nodeMetrics node name → usage as the metrics poller last read it (for the usage plugin)
   */
  public ScenarioExporter(
      Function<String, List<HasMetadata>> informers,
      KubernetesSerialization serialization,
      Set<String> schedulerNames,
      Map<String, NodeMetrics> nodeMetrics) {
    this.informers = informers;
    this.serialization = serialization;
    this.schedulerNames = Set.copyOf(schedulerNames);
    this.nodeMetrics = Map.copyOf(nodeMetrics);
  }

  private static Map<String, String> kinds() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("namespaces", "Namespace");
    m.put("priorityclasses", "PriorityClass");
    m.put("nodes", "Node");
    m.put("storageclasses", "StorageClass");
    m.put("csinodes", "CSINode");
    m.put("persistentvolumes", "PersistentVolume");
    m.put("queues", "Queue");
    m.put("podgroups", "PodGroup");
    m.put("persistentvolumeclaims", "PersistentVolumeClaim");
    m.put("resourcequotas", "ResourceQuota");
    m.put("poddisruptionbudgets", "PodDisruptionBudget");
    m.put("pods", "Pod");
    return m;
  }

  public String scenario(ClusterExport.Request request, Instant now) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("name", request.name());
    doc.put(
        "description",
        "Snapshot of the cluster as Caldera's informers held it at "
            + DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS)));
    doc.put("now", DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS)));
    if (request.conf() != null) {
      doc.put("conf", serialization.unmarshal(request.conf(), Map.class));
    }
    if (!request.policies().isEmpty()) {
      doc.put("policies", new TreeMap<>(request.policies()));
    }
    Anonymizer anonymizer = request.anonymize() ? new Anonymizer() : null;
    List<Map<String, Object>> objects = objects(request.dropUnread(), anonymizer);
    if (!nodeMetrics.isEmpty()) {
      Map<String, Object> metrics = new LinkedHashMap<>();
      new TreeMap<>(nodeMetrics)
          .forEach(
              (node, m) -> {
                Map<String, Object> usage = new LinkedHashMap<>();
                usage.put("cpu", m.cpuPercent());
                usage.put("memory", m.memoryPercent());
                if (m.updated() != null) {
                  usage.put(
                      "updated",
                      DateTimeFormatter.ISO_INSTANT.format(
                          m.updated().truncatedTo(ChronoUnit.SECONDS)));
                }
                metrics.put(anonymizer == null ? node : anonymizer.node(node), usage);
              });
      doc.put("nodeMetrics", metrics);
    }
    doc.put("objects", objects);
    try {
      return (request.json() ? JSON : YAML).writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<Map<String, Object>> objects(boolean dropUnread, Anonymizer anonymizer) {
    List<Map<String, Object>> out = new ArrayList<>();
    KINDS.forEach(
        (informer, kind) -> {
          List<HasMetadata> listed = new ArrayList<>(informers.apply(informer));
          listed.sort(
              Comparator.comparing((HasMetadata o) -> nullToEmpty(o.getMetadata().getNamespace()))
                  .thenComparing(o -> o.getMetadata().getName()));
          for (HasMetadata o : listed) {
            if (kind.equals("Pod") && !relevantPod(o)) {
              continue;
            }
            Map<String, Object> m = clean(kind, o, dropUnread);
            if (anonymizer != null) {
              anonymizer.rename(kind, m);
            }
            out.add(m);
          }
        });
    return out;
  }

  /** As a session sees pods: this scheduler's, and every pod already on a node. */
  private boolean relevantPod(HasMetadata o) {
    io.fabric8.kubernetes.api.model.Pod p = (io.fabric8.kubernetes.api.model.Pod) o;
    String scheduler = p.getSpec() == null ? null : p.getSpec().getSchedulerName();
    String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
    return schedulerNames.contains(scheduler) || (node != null && !node.isEmpty());
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> clean(String kind, HasMetadata o, boolean dropUnread) {
    Map<String, Object> m = serialization.convertValue(o, Map.class);
    m.putIfAbsent("kind", kind);
    Object metadata = m.get("metadata");
    if (metadata instanceof Map<?, ?> meta) {
      Map<String, Object> md = (Map<String, Object>) meta;
      md.remove("managedFields");
      md.remove("resourceVersion");
      md.remove("selfLink");
      md.remove("generation");
      if (md.get("annotations") instanceof Map<?, ?> a) {
        Map<String, Object> annotations = (Map<String, Object>) a;
        annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
        if (dropUnread) {
          annotations.keySet().removeIf(k -> READ_ANNOTATIONS.stream().noneMatch(k::startsWith));
        }
        if (annotations.isEmpty()) {
          md.remove("annotations");
        }
      }
    }
    if (dropUnread && kind.equals("Pod")) {
      if (m.get("status") instanceof Map<?, ?> st) {
        ((Map<String, Object>) st).keySet().removeIf(k -> !READ_POD_STATUS.contains(k));
      }
      if (m.get("spec") instanceof Map<?, ?> spec) {
        for (String list : List.of("containers", "initContainers")) {
          if (((Map<String, Object>) spec).get(list) instanceof List<?> containers) {
            for (Object c : containers) {
              if (c instanceof Map<?, ?> container) {
                ((Map<String, Object>) container).keySet().removeAll(UNREAD_CONTAINER_FIELDS);
              }
            }
          }
        }
      }
    }
    return m;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
