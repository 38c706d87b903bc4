package dev.caldera.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.GoDuration;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.sim.internal.ExpectationsReader;
import dev.caldera.sim.internal.Fields;
import dev.caldera.sim.internal.ObjectsReader;
import dev.caldera.sim.internal.StateBuilder;
import dev.caldera.sim.internal.YamlTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** Reads scenario files (see {@code scenario-format.md}). */
public final class ScenarioLoader {

  /** The clock of a scenario that writes no time at all. */
  static final Instant DEFAULT_NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static final List<String> TOP_LEVEL_KEYS =
      List.of(
          "name",
          "description",
          "now",
          "conf",
          "policies",
          "nodeMetrics",
          "objects",
          "sessions",
          "period",
          "timeline",
          "expect");

  private static final List<String> STEP_KEYS = List.of("session", "add", "delete");

  /** The kinds a timeline step may add. */
  private static final List<String> STEP_KINDS = List.of("Pod", "PodGroup");

  /**
   * The most sessions a scenario may ask for: each session is a full scheduling pass, so a number
   * in the millions runs for days; the scenarios of the project ask for at most a handful.
   */
  public static final int MAX_SESSIONS = 10_000;

  private static final List<String> METRIC_KEYS = List.of("cpu", "memory", "updated");

  private ScenarioLoader() {}

  /**
   * Loads one scenario file. Its objects are kept as written; they are admitted when the first
   * snapshot of {@link Scenario#cluster()} is taken.
   *
   * @throws ScenarioException with a one-line message naming the file, the object and the field
   */
  public static Scenario load(Path file) throws ScenarioException {
    return load(file, Replay.AS_WRITTEN);
  }

  /**
   * What to replay a scenario (a snapshot of a cluster) under instead of what the file says: null
   * keeps the file's own. The scenario's admission rules follow the conf used (hierarchical
   * queues).
   *
   * @param conf instead of the file's {@code conf}
   * @param policies instead of the file's {@code policies} (file name → text)
   */
  public record Replay(SchedulerConf conf, Map<String, String> policies) {
    /** The file as it is. */
    public static final Replay AS_WRITTEN = new Replay(null, null);

    public Replay {
      policies =
          policies == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    }
  }

  /**
   * Loads one scenario file under {@code replay}'s conf and policies.
   *
   * @throws ScenarioException with a one-line message naming the file, the object and the field
   */
  public static Scenario load(Path file, Replay replay) throws ScenarioException {
    String source = file.toString();
    String text;
    try {
      text = TextFiles.read(file, TextFiles.MAX_SCENARIO_BYTES);
    } catch (IOException e) {
      throw new ScenarioException(source + ": cannot read: " + describe(e), e);
    }
    JsonNode root = YamlTrees.read(text, source);
    Fields f = new Fields(source, null);
    if (root == null || !root.isObject()) {
      throw f.error("", "expected a mapping with name, conf and objects");
    }
    f.onlyKeys(root, "", TOP_LEVEL_KEYS);
    String name = f.requiredText(root.get("name"), "name");
    String description = f.text(root.get("description"), "description");
    JsonNode confNode = f.object(root.get("conf"), "conf");
    if (confNode == null) {
      throw f.error("conf", "missing (expected the scheduler configuration: actions and tiers)");
    }
    SchedulerConf conf;
    try {
      conf = SchedulerConf.fromTree(confNode, source);
    } catch (ConfException e) {
      throw new ScenarioException(source + ": conf: " + String.join("; ", e.problems()), e);
    }
    Map<String, String> policies = f.stringMap(root.get("policies"), "policies");
    if (replay.conf() != null) {
      conf = replay.conf();
    }
    if (replay.policies() != null) {
      policies = replay.policies();
    }
    if (Fields.absent(root.get("objects"))) {
      throw f.error("objects", "missing (expected a list of Kubernetes objects)");
    }
    List<JsonNode> objects = f.list(root.get("objects"), "objects");
    Integer sessions = f.integer(root.get("sessions"), "sessions");
    if (sessions != null && (sessions < 1 || sessions > MAX_SESSIONS)) {
      throw f.error(
          "sessions",
          "expected a number of sessions from 1 to " + MAX_SESSIONS + ", got " + sessions);
    }
    StateBuilder read = ObjectsReader.read(source, objects);
    ClusterState initial = read.checked();
    EmbeddedCluster.Rules rules = read.rules(conf.hierarchyEnabled("capacity"));
    Instant now = f.time(root.get("now"), "now");
    if (now == null) {
      now = latestTime(initial);
    }
    Map<String, NodeMetrics> metrics = nodeMetrics(f, root.get("nodeMetrics"), now);
    Duration period = Duration.ZERO;
    String periodText = f.text(root.get("period"), "period");
    if (periodText != null) {
      try {
        period = GoDuration.parse(periodText);
      } catch (IllegalArgumentException e) {
        throw f.error("period", "expected a duration such as 10m, got \"" + periodText + "\"");
      }
      if (period.isNegative()) {
        throw f.error("period", "expected a duration of 0 or more, got " + periodText);
      }
    }
    List<TimelineStep> timeline =
        timeline(
            f, source, root.get("timeline"), objects, initial, sessions == null ? 1 : sessions);
    return new Scenario(
        file,
        name,
        description == null ? "" : description,
        now,
        conf,
        policies,
        metrics,
        initial,
        rules,
        sessions == null ? 1 : sessions,
        ExpectationsReader.read(source, root.get("expect")),
        period,
        timeline);
  }

  /**
   * The {@code timeline:} steps. A step adds pod groups and pods only; they are read together with
   * the scenario's own objects (so that a pod may name a pod group of either, and no name is taken
   * twice), and kept as written: the embedded cluster admits them at the snapshot after they are
   * submitted, with the scenario's priority classes and queues.
   */
  private static List<TimelineStep> timeline(
      Fields f,
      String source,
      JsonNode node,
      List<JsonNode> objects,
      ClusterState initial,
      int sessions)
      throws ScenarioException {
    if (Fields.absent(node)) {
      return List.of();
    }
    Set<String> initialGroups = new HashSet<>();
    initial.podGroups().forEach(pg -> initialGroups.add(pg.key()));
    Set<String> initialPods = new HashSet<>();
    initial.pods().forEach(p -> initialPods.add(p.key()));
    List<TimelineStep> steps = new ArrayList<>();
    List<JsonNode> list = f.list(node, "timeline");
    for (int i = 0; i < list.size(); i++) {
      String path = "timeline[" + i + "]";
      JsonNode step = f.object(list.get(i), path);
      if (step == null) {
        throw f.error(path, "expected a mapping with session, and add or delete");
      }
      f.onlyKeys(step, path, STEP_KEYS);
      Integer session = f.integer(step.get("session"), path + ".session");
      if (session == null || session < 2 || session > sessions) {
        throw f.error(
            path + ".session",
            "expected the session the step comes before, from 2 to "
                + sessions
                + " (sessions), got "
                + session);
      }
      List<JsonNode> add =
          Fields.absent(step.get("add")) ? List.of() : f.list(step.get("add"), path + ".add");
      List<String> delete =
          Fields.absent(step.get("delete"))
              ? List.of()
              : f.stringList(step.get("delete"), path + ".delete");
      List<PodGroup> groups = new ArrayList<>();
      List<Pod> pods = new ArrayList<>();
      for (int j = 0; j < add.size(); j++) {
        String kind = add.get(j).path("kind").asText("");
        if (!STEP_KINDS.contains(kind)) {
          throw f.error(
              path + ".add[" + j + "]",
              "expected a Pod or a PodGroup (a step creates workloads), got kind \"" + kind + "\"");
        }
      }
      if (!add.isEmpty()) {
        List<JsonNode> all = new ArrayList<>(objects);
        all.addAll(add);
        ClusterState state = ObjectsReader.read(source + ": " + path + ".add", all).checked();
        for (PodGroup pg : state.podGroups()) {
          if (!initialGroups.contains(pg.key())) {
            groups.add(pg);
          }
        }
        for (Pod p : state.pods()) {
          if (!initialPods.contains(p.key())) {
            pods.add(p);
          }
        }
      }
      steps.add(new TimelineStep(session, groups, pods, delete));
    }
    steps.sort(java.util.Comparator.comparingInt(TimelineStep::session));
    return List.copyOf(steps);
  }

  /**
   * The scenario files named by {@code filesOrDirs}: a file as it is, a directory as every {@code
   * .yaml} and {@code .yml} file below it, sorted by path.
   *
   * @throws UncheckedIOException when a directory cannot be listed
   */
  public static List<Path> expand(List<Path> filesOrDirs) {
    List<Path> out = new ArrayList<>();
    for (Path p : filesOrDirs) {
      if (!Files.isDirectory(p)) {
        out.add(p);
        continue;
      }
      try (Stream<Path> walk = Files.walk(p)) {
        walk.filter(Files::isRegularFile)
            .filter(
                x -> {
                  String n = x.getFileName().toString();
                  return n.endsWith(".yaml") || n.endsWith(".yml");
                })
            .sorted()
            .forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static Map<String, NodeMetrics> nodeMetrics(Fields f, JsonNode node, Instant now)
      throws ScenarioException {
    JsonNode obj = f.object(node, "nodeMetrics");
    if (obj == null) {
      return Map.of();
    }
    Map<String, NodeMetrics> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : obj.properties()) {
      String p = "nodeMetrics." + e.getKey();
      JsonNode m = f.object(e.getValue(), p);
      if (m == null) {
        throw f.error(p, "expected a mapping such as {cpu: 40, memory: 60}");
      }
      f.onlyKeys(m, p, METRIC_KEYS);
      Double cpu = f.number(m.get("cpu"), p + ".cpu");
      Double memory = f.number(m.get("memory"), p + ".memory");
      Instant updated = f.time(m.get("updated"), p + ".updated");
      out.put(
          e.getKey(),
          new NodeMetrics(
              cpu == null ? 0 : cpu, memory == null ? 0 : memory, updated == null ? now : updated));
    }
    return Collections.unmodifiableMap(out);
  }

  /** The latest time written in the objects, so that every age the scheduler sees is >= 0. */
  private static Instant latestTime(ClusterState s) {
    Instant latest = Instant.EPOCH;
    for (Pod p : s.pods()) {
      latest = max(latest, p.metadata().creationTimestamp());
      for (PodCondition c : p.conditions()) {
        latest = max(latest, c.lastTransitionTime());
      }
    }
    for (PodGroup pg : s.podGroups()) {
      latest = max(latest, pg.metadata().creationTimestamp());
      for (PodCondition c : pg.conditions()) {
        latest = max(latest, c.lastTransitionTime());
      }
    }
    for (Queue q : s.queues()) {
      latest = max(latest, q.metadata().creationTimestamp());
    }
    for (Node n : s.nodes()) {
      latest = max(latest, n.metadata().creationTimestamp());
    }
    return latest.equals(Instant.EPOCH) ? DEFAULT_NOW : latest;
  }

  private static Instant max(Instant a, Instant b) {
    return b != null && b.isAfter(a) ? b : a;
  }

  private static String describe(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
