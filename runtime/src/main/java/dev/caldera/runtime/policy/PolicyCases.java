package dev.caldera.runtime.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.sim.TextFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads {@code <name>.cases.yaml}: top-level {@code queues} (name → spec) and {@code now}, and a
 * list of {@code cases}. A reclaim case has {@code reclaimer} and {@code candidate}; a preemptive
 * case {@code queue} (a name) and {@code task}; both have {@code expect: allow|deny}, and may have
 * {@code name}, {@code line}, {@code now} and their own {@code queues}.
 */
public final class PolicyCases {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Set<String> FILE_KEYS = Set.of("queues", "now", "cases");
  private static final Set<String> CASE_KEYS =
      Set.of("name", "reclaimer", "candidate", "queue", "task", "queues", "now", "expect", "line");

  private PolicyCases() {}

  /** The cases of {@code file}. */
  public static List<PolicyCase> load(Path file) {
    String text;
    try {
      text = TextFiles.read(file, TextFiles.MAX_SCENARIO_BYTES);
    } catch (IOException e) {
      throw new CaseException(file + ": cannot read: " + e.getMessage());
    }
    return parse(file.toString(), text);
  }

  /** The cases of a YAML text; {@code where} names it in errors. */
  public static List<PolicyCase> parse(String where, String text) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw new CaseException(where + ": not YAML: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new CaseException(where + ": expected a map with cases: [...]");
    }
    keys(root, FILE_KEYS, where);
    JsonNode cases = root.path("cases");
    if (!cases.isArray() || cases.isEmpty()) {
      throw new CaseException(where + ": cases: expected a non-empty list");
    }
    JsonNode fileQueues = root.path("queues");
    List<PolicyCase> out = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      JsonNode c = cases.get(i);
      String at = where + ": cases[" + i + "]";
      if (!c.isObject()) {
        throw new CaseException(at + ": expected a map");
      }
      keys(c, CASE_KEYS, at);
      String name = c.path("name").asText("case " + (i + 1));
      String expect = c.path("expect").asText("");
      if (!expect.equals("allow") && !expect.equals("deny")) {
        throw new CaseException(at + " (" + name + "): expect: must be allow or deny");
      }
      boolean reclaim = c.has("reclaimer") || c.has("candidate");
      boolean preemptive = c.has("queue") || c.has("task");
      if (reclaim == preemptive
          || (reclaim && !(c.has("reclaimer") && c.has("candidate")))
          || (preemptive && !(c.has("queue") && c.has("task")))) {
        throw new CaseException(
            at
                + " ("
                + name
                + "): expected either reclaimer and candidate (a reclaim case) or queue and task"
                + " (a preemptive case)");
      }
      Integer line = null;
      if (c.has("line")) {
        if (!c.get("line").canConvertToInt()) {
          throw new CaseException(at + " (" + name + "): line: expected a line number");
        }
        line = c.get("line").asInt();
      }
      out.add(
          new PolicyCase(
              name,
              reclaim ? c.get("reclaimer") : null,
              reclaim ? c.get("candidate") : null,
              preemptive ? c.get("queue").asText() : null,
              preemptive ? c.get("task") : null,
              merge(fileQueues, c.path("queues")),
              c.has("now") ? c.get("now").asText() : root.path("now").asText(null),
              expect.equals("allow"),
              line));
    }
    return out;
  }

  /** The file's queues with the case's on top (a case's queue replaces the file's whole). */
  private static JsonNode merge(JsonNode base, JsonNode over) {
    ObjectNode merged = YAML.createObjectNode();
    if (base.isObject()) {
      merged.setAll((ObjectNode) base);
    }
    if (over.isObject()) {
      merged.setAll((ObjectNode) over);
    }
    return merged;
  }

  static void keys(JsonNode node, Set<String> known, String where) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!known.contains(k)) {
        throw new CaseException(
            where + ": unknown key " + k + " (known: " + String.join(", ", sorted(known)) + ")");
      }
    }
  }

  private static List<String> sorted(Set<String> keys) {
    List<String> list = new ArrayList<>(keys);
    list.sort(null);
    return list;
  }

  /** Parses one YAML value (a flow map such as {@code {owner: Job}}) for the command line. */
  public static JsonNode value(String yaml) {
    try {
      JsonNode node = YAML.readTree(yaml);
      return node == null ? YAML.createObjectNode() : node;
    } catch (JsonProcessingException e) {
      throw new CaseException(
          "not YAML: " + yaml + " (" + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
    }
  }
}
