package dev.caldera.framework.conf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.framework.PluginRegistry;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed {@code volcano-scheduler.conf}.
 *
 * <p>Read as Volcano reads it, but strictly: an unknown key, a flag that is not a boolean, an empty
 * action name or a malformed tier is an error naming it, and {@link #validate} also rejects unknown
 * actions and plugins that are not available.
 *
 * @param actions action names in run order
 * @param configurations action name → its arguments
 */
public record SchedulerConf(
    List<String> actions, List<Tier> tiers, Map<String, Map<String, Object>> configurations) {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> TOP_LEVEL_KEYS =
      Set.of("actions", "tiers", "configurations", "metrics");

  /** Volcano's built-in default conf. */
  public static final String DEFAULT_CONF =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: overcommit}, {name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}]
      """;

  public SchedulerConf {
    actions = List.copyOf(actions);
    tiers = List.copyOf(tiers);
    configurations = configurations == null ? Map.of() : Map.copyOf(configurations);
  }

  /** The longest conf text read, in characters (and in bytes, for a conf file). */
  public static final int MAX_CHARS = 256 * 1024;

  /**
   * Parses YAML text.
   *
   * @param source a name for the text in messages (a file name)
   * @throws ConfException listing every problem
   */
  public static SchedulerConf parse(String yaml, String source) throws ConfException {
    if (yaml.length() > MAX_CHARS) {
      throw new ConfException(
          source,
          List.of(
              "too large: "
                  + yaml.length()
                  + " characters, at most "
                  + MAX_CHARS
                  + " are read (a conf is a few kilobytes)"));
    }
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new ConfException(source, List.of("not valid YAML: " + e.getOriginalMessage()));
    }
    if (root == null || !root.isObject()) {
      throw new ConfException(source, List.of("expected a mapping with actions and tiers"));
    }
    return fromTree(root, source);
  }

  /**
   * Reads a conf from an already parsed YAML/JSON tree (a scenario's {@code conf:}).
   *
   * @throws ConfException listing every problem
   */
  public static SchedulerConf fromTree(JsonNode root, String source) throws ConfException {
    List<String> problems = new ArrayList<>();
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!TOP_LEVEL_KEYS.contains(key)) {
        problems.add(
            "unknown key \"" + key + "\" (expected actions, tiers, configurations, metrics)");
      }
    }
    List<String> actions = parseActions(root.get("actions"), problems);
    List<Tier> tiers = parseTiers(root.get("tiers"), problems);
    Map<String, Map<String, Object>> configurations =
        parseConfigurations(root.get("configurations"), problems);
    checkDrfHierarchyConflict(tiers, problems);
    checkCapacityProportionConflict(tiers, problems);
    if (!problems.isEmpty()) {
      throw new ConfException(source, problems);
    }
    return new SchedulerConf(actions, tiers, configurations);
  }

  private static List<String> parseActions(JsonNode node, List<String> problems) {
    List<String> actions = new ArrayList<>();
    if (node == null || node.isNull()) {
      problems.add(
          "actions: missing (expected a comma-separated list such as \"enqueue, allocate, backfill\")");
      return actions;
    }
    if (!node.isTextual()) {
      problems.add(
          "actions: expected a comma-separated string, got "
              + node.getNodeType().name().toLowerCase());
      return actions;
    }
    for (String part : node.asText().split(",", -1)) {
      String name = part.trim();
      if (name.isEmpty()) {
        problems.add("actions: empty action name in \"" + node.asText() + "\"");
      } else {
        actions.add(name);
      }
    }
    return actions;
  }

  private static List<Tier> parseTiers(JsonNode node, List<String> problems) {
    List<Tier> tiers = new ArrayList<>();
    if (node == null || node.isNull()) {
      problems.add("tiers: missing (expected a list of {plugins: [...]})");
      return tiers;
    }
    if (!node.isArray()) {
      problems.add("tiers: expected a list of {plugins: [...]}");
      return tiers;
    }
    for (int t = 0; t < node.size(); t++) {
      JsonNode tier = node.get(t);
      String where = "tiers[" + t + "]";
      if (!tier.isObject()) {
        problems.add(where + ": expected a mapping with plugins");
        continue;
      }
      for (Iterator<String> it = tier.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!key.equals("plugins")) {
          problems.add(where + ": unknown key \"" + key + "\" (expected plugins)");
        }
      }
      JsonNode plugins = tier.get("plugins");
      if (plugins == null || !plugins.isArray()) {
        problems.add(where + ".plugins: expected a list of plugin entries");
        continue;
      }
      List<PluginOption> options = new ArrayList<>();
      for (int p = 0; p < plugins.size(); p++) {
        PluginOption option = parsePlugin(plugins.get(p), where + ".plugins[" + p + "]", problems);
        if (option != null) {
          options.add(option);
        }
      }
      tiers.add(new Tier(options));
    }
    return tiers;
  }

  private static PluginOption parsePlugin(JsonNode node, String where, List<String> problems) {
    if (!node.isObject()) {
      problems.add(where + ": expected a mapping with a name");
      return null;
    }
    JsonNode nameNode = node.get("name");
    if (nameNode == null || !nameNode.isTextual() || nameNode.asText().isBlank()) {
      problems.add(where + ".name: missing (expected the plugin's name, e.g. gang)");
      return null;
    }
    String name = nameNode.asText().trim();
    where = where + " (" + name + ")";
    EnumSet<Flag> enabled = EnumSet.noneOf(Flag.class);
    for (Flag f : Flag.values()) {
      if (f.defaultValue()) {
        enabled.add(f);
      }
    }
    Map<String, Object> arguments = Map.of();
    boolean optional = false;
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String key = e.getKey();
      JsonNode value = e.getValue();
      if (key.equals("name")) {
        continue;
      }
      if (key.equals("arguments")) {
        if (value.isNull()) {
          continue;
        }
        if (!value.isObject()) {
          problems.add(where + ".arguments: expected a mapping of argument names to values");
          continue;
        }
        arguments = toMap((ObjectNode) value);
        continue;
      }
      if (key.equals("optional")) {
        Boolean b = bool(value);
        if (b == null) {
          problems.add(where + ".optional: expected true or false");
        } else {
          optional = b;
        }
        continue;
      }
      Flag flag = Flag.byKey(key);
      if (flag == null) {
        problems.add(
            where
                + ": unknown key \""
                + key
                + "\" (expected name, arguments, optional or an enable flag such as enablePreemptable)");
        continue;
      }
      if (value.isNull()) {
        continue;
      }
      Boolean b = bool(value);
      if (b == null) {
        problems.add(where + "." + key + ": expected true or false, got " + value);
      } else if (b) {
        enabled.add(flag);
      } else {
        enabled.remove(flag);
      }
    }
    return new PluginOption(name, enabled, arguments, optional);
  }

  private static Boolean bool(JsonNode value) {
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    if (value.isTextual()) {
      String t = value.asText().trim();
      if (t.equalsIgnoreCase("true")) {
        return true;
      }
      if (t.equalsIgnoreCase("false")) {
        return false;
      }
    }
    return null;
  }

  private static Map<String, Map<String, Object>> parseConfigurations(
      JsonNode node, List<String> problems) {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!node.isArray()) {
      problems.add("configurations: expected a list of {name, arguments}");
      return out;
    }
    for (int i = 0; i < node.size(); i++) {
      JsonNode c = node.get(i);
      String where = "configurations[" + i + "]";
      if (!c.isObject() || c.get("name") == null || !c.get("name").isTextual()) {
        problems.add(where + ": expected {name: <action>, arguments: {...}}");
        continue;
      }
      for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!key.equals("name") && !key.equals("arguments")) {
          problems.add(where + ": unknown key \"" + key + "\" (expected name, arguments)");
        }
      }
      JsonNode args = c.get("arguments");
      Map<String, Object> values = Map.of();
      if (args != null && !args.isNull()) {
        if (!args.isObject()) {
          problems.add(where + ".arguments: expected a mapping");
          continue;
        }
        values = toMap((ObjectNode) args);
      }
      out.put(c.get("name").asText().trim(), values);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> toMap(ObjectNode node) {
    return YAML.convertValue(node, LinkedHashMap.class);
  }

  private static void checkDrfHierarchyConflict(List<Tier> tiers, List<String> problems) {
    for (int t = 0; t < tiers.size(); t++) {
      boolean drfHierarchy = false;
      boolean proportion = false;
      for (PluginOption p : tiers.get(t).plugins()) {
        drfHierarchy |= p.name().equals("drf") && p.isEnabled(Flag.HIERARCHY);
        proportion |= p.name().equals("proportion");
      }
      if (drfHierarchy && proportion) {
        problems.add(
            "tiers["
                + t
                + "]: proportion and drf with enableHierarchy conflict (put them in different tiers)");
      }
    }
  }

  /**
   * {@code capacity} and {@code proportion} both compute every queue's deserved share and both vote
   * on the same extension points, so a conf may enable one of them only (Volcano's
   * hierarchical-queues design: they are mutually exclusive).
   */
  private static void checkCapacityProportionConflict(List<Tier> tiers, List<String> problems) {
    String capacity = null;
    String proportion = null;
    for (int t = 0; t < tiers.size(); t++) {
      List<PluginOption> plugins = tiers.get(t).plugins();
      for (int p = 0; p < plugins.size(); p++) {
        String where = "tiers[" + t + "].plugins[" + p + "]";
        if (plugins.get(p).name().equals("capacity") && capacity == null) {
          capacity = where;
        } else if (plugins.get(p).name().equals("proportion") && proportion == null) {
          proportion = where;
        }
      }
    }
    if (capacity != null && proportion != null) {
      problems.add(
          capacity
              + " (capacity) and "
              + proportion
              + " (proportion): the plugins capacity and proportion are mutually exclusive"
              + " (both set the queues' deserved share); enable one of them");
    }
  }

  /**
   * Checks that every action and every non-optional plugin is available in {@code registry}.
   *
   * @return the problems, empty if the conf can run
   */
  public List<String> missing(PluginRegistry registry) {
    List<String> problems = new ArrayList<>();
    for (String action : actions) {
      if (registry.action(action).isEmpty()) {
        problems.add(
            "actions: unknown action \""
                + action
                + "\" (available: "
                + String.join(", ", registry.actionNames())
                + ")");
      }
    }
    for (int t = 0; t < tiers.size(); t++) {
      for (PluginOption p : tiers.get(t).plugins()) {
        if (!p.optional() && registry.plugin(p.name()).isEmpty()) {
          problems.add(
              "tiers["
                  + t
                  + "]: plugin \""
                  + p.name()
                  + "\" is not available (available: "
                  + String.join(", ", registry.pluginNames())
                  + ")");
        }
      }
    }
    return problems;
  }

  /**
   * Whether the first entry named {@code plugin} has {@code enableHierarchy} on ({@code
   * ssn.HierarchyEnabled}).
   */
  public boolean hierarchyEnabled(String plugin) {
    for (Tier tier : tiers) {
      for (PluginOption p : tier.plugins()) {
        if (p.name().equals(plugin)) {
          return p.isEnabled(Flag.HIERARCHY);
        }
      }
    }
    return false;
  }

  /** Every plugin name the tiers use, in order of first appearance. */
  public List<String> pluginNames() {
    List<String> names = new ArrayList<>();
    for (Tier tier : tiers) {
      for (PluginOption p : tier.plugins()) {
        if (!names.contains(p.name())) {
          names.add(p.name());
        }
      }
    }
    return names;
  }
}
