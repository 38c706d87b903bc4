package dev.caldera.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.info.Blocker;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code caldera queues [NAME]}: the queue tree of a running scheduler (allocated of deserved and
 * capability, pending pod groups, card quotas and guarantees the inventory cannot meet) and the
 * cards per model (inventory against the sum of the queues' quotas), or one queue's line with each
 * pod group's blocker.
 */
@Command(
    name = "queues",
    mixinStandardHelpOptions = true,
    description = "Show a running scheduler's queues, or one queue's pending pod groups in order.")
final class QueuesCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Mixin AdminAddress admin;

  @Parameters(arity = "0..1", paramLabel = "NAME", description = "A queue: list its line.")
  String queue;

  @Override
  public Integer call() {
    PrintStream out = parent.out();
    AdminClient client = new AdminClient(admin);
    try {
      if (queue == null) {
        JsonNode nodes;
        try {
          nodes = client.get("/api/nodes");
        } catch (AdminClient.AdminError olderScheduler) {
          nodes = null;
        }
        out.print(tree(client.get("/api/queues"), nodes));
      } else {
        out.print(line(client.get("/api/queues/" + AdminClient.segment(queue) + "/pending")));
      }
    } catch (AdminClient.AdminError e) {
      parent.err().println("error: " + e.getMessage());
      return 1;
    }
    return 0;
  }

  /** One row per queue, children indented under their parent. */
  static String tree(JsonNode body) {
    return tree(body, null);
  }

  /**
   * One row per queue, and under a queue whose card quota the cluster's inventory cannot meet, a
   * line saying so ({@code nodes}: the answer of {@code /api/nodes}, or null).
   */
  static String tree(JsonNode body, JsonNode nodes) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            "%-24s %-8s %6s %8s  %s%n",
            "QUEUE", "STATE", "WEIGHT", "PENDING", "ALLOCATED / DESERVED / CAPABILITY"));
    Map<String, Integer> depth = new java.util.HashMap<>();
    for (JsonNode q : body.path("queues")) {
      String name = q.path("name").asText();
      String parentName = q.path("parent").asText();
      int d = parentName.isEmpty() ? 0 : depth.getOrDefault(parentName, 0) + 1;
      depth.put(name, d);
      sb.append(
          String.format(
              "%-24s %-8s %6d %8d  %s%n",
              "  ".repeat(d) + name,
              q.path("state").asText(),
              q.path("weight").asInt(),
              q.path("pending").asInt(),
              figures(q)));
      List<String> quotas = new ArrayList<>();
      for (JsonNode f : q.path("quotas")) {
        quotas.add(
            f.path("resource").asText()
                + " "
                + Blocker.Figure.format(f.path("allocated").asDouble())
                + " / "
                + Blocker.Figure.format(f.path("limit").asDouble()));
      }
      if (!quotas.isEmpty()) {
        sb.append("  ".repeat(d + 1))
            .append(q.path("quotas").get(0).path("limitName").asText())
            .append(": ")
            .append(String.join(", ", quotas))
            .append('\n');
      }
      List<String> over = new ArrayList<>();
      if (nodes != null) {
        for (JsonNode c : nodes.path("cards")) {
          for (JsonNode qc : c.path("queues")) {
            if (qc.path("queue").asText().equals(name) && qc.path("overInventory").asBoolean()) {
              over.add(
                  c.path("card").asText()
                      + " quota "
                      + Blocker.Figure.format(qc.path("quota").asDouble())
                      + " > "
                      + Blocker.Figure.format(c.path("inventory").asDouble())
                      + " in the cluster");
            }
          }
        }
      }
      if (!over.isEmpty()) {
        sb.append("  ".repeat(d + 1))
            .append("quota above inventory (can never be met): ")
            .append(String.join(", ", over))
            .append('\n');
      }
      List<String> guarantees = guaranteesAboveInventory(q, nodes);
      if (!guarantees.isEmpty()) {
        sb.append("  ".repeat(d + 1))
            .append("guarantee above inventory (can never be met): ")
            .append(String.join(", ", guarantees))
            .append('\n');
      }
    }
    if (nodes != null && nodes.path("cards").size() > 0) {
      sb.append('\n').append(inventory(nodes.path("cards")));
    }
    JsonNode orphans = body.path("orphans");
    for (JsonNode o : orphans) {
      sb.append(o.path("podGroup").asText())
          .append(": ")
          .append(o.path("blocker").path("message").asText())
          .append('\n');
    }
    return sb.toString();
  }

  /**
   * The queue's guarantees on a resource that counts cards ({@code nvidia.com/gpu}) that are more
   * than the cards the nodes have of it, all models counted by it together.
   */
  static List<String> guaranteesAboveInventory(JsonNode q, JsonNode nodes) {
    List<String> out = new ArrayList<>();
    if (nodes == null) {
      return out;
    }
    Map<String, Double> inventory = new java.util.TreeMap<>();
    Map<String, java.util.Set<String>> models = new java.util.TreeMap<>();
    for (JsonNode node : nodes.path("nodes")) {
      for (JsonNode c : node.path("cards")) {
        String resource = c.path("resource").asText();
        if (!resource.isEmpty()) {
          inventory.merge(resource, c.path("capacity").asDouble(), Double::sum);
          models
              .computeIfAbsent(resource, r -> new java.util.TreeSet<>())
              .add(c.path("card").asText());
        }
      }
    }
    Iterator<String> names = q.path("guarantee").fieldNames();
    while (names.hasNext()) {
      String r = names.next();
      double guarantee = q.path("guarantee").path(r).asDouble();
      Double has = inventory.get(r);
      if (has != null && guarantee > has + 1e-9) {
        out.add(
            r
                + " guarantee "
                + Blocker.Figure.format(guarantee)
                + " > "
                + Blocker.Figure.format(has)
                + " in the cluster ("
                + String.join(", ", models.get(r))
                + ")");
      }
    }
    return out;
  }

  /**
   * Per card model: the cluster's inventory against the sum of the queues' card quotas, what pods
   * hold, and each queue's share ({@code cards} of {@code /api/nodes}).
   */
  static String inventory(JsonNode cards) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            "%-44s %-6s %9s %7s %9s  %s%n",
            "CARD", "KIND", "INVENTORY", "QUOTAS", "ALLOCATED", "QUEUES (allocated / quota)"));
    for (JsonNode c : cards) {
      double quotas = 0;
      List<String> queues = new ArrayList<>();
      for (JsonNode q : c.path("queues")) {
        double quota = q.path("quota").asDouble();
        quotas += Math.max(0, quota);
        queues.add(
            q.path("queue").asText()
                + " "
                + Blocker.Figure.format(q.path("allocated").asDouble())
                + " / "
                + (quota < 0 ? "no quota" : Blocker.Figure.format(quota)));
      }
      double inventory = c.path("inventory").asDouble();
      sb.append(
          String.format(
              "%-44s %-6s %9s %7s %9s  %s%n",
              c.path("card").asText(),
              c.path("kind").asText(),
              Blocker.Figure.format(inventory),
              Blocker.Figure.format(quotas),
              Blocker.Figure.format(c.path("allocated").asDouble()),
              String.join(", ", queues)));
    }
    return sb.toString();
  }

  private static String figures(JsonNode q) {
    StringBuilder sb = new StringBuilder();
    JsonNode allocated = q.path("allocated");
    Iterator<String> names = allocated.fieldNames();
    while (names.hasNext()) {
      String r = names.next();
      if (r.equals("pods")) {
        continue;
      }
      double a = allocated.path(r).asDouble();
      JsonNode deserved = q.path("deserved").path(r);
      JsonNode cap = q.path("capability").path(r);
      if (a == 0 && deserved.isMissingNode() && cap.isMissingNode()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(r)
          .append(' ')
          .append(Blocker.Figure.format(a))
          .append(" / ")
          .append(deserved.isMissingNode() ? "-" : Blocker.Figure.format(deserved.asDouble()))
          .append(" / ")
          .append(cap.isMissingNode() ? "-" : Blocker.Figure.format(cap.asDouble()));
    }
    return sb.toString();
  }

  /** The queue's pending pod groups in order, each with its blocker. */
  static String line(JsonNode body) {
    StringBuilder sb = new StringBuilder();
    JsonNode pending = body.path("pending");
    if (pending.size() == 0) {
      return "nothing pending in queue " + body.path("queue").asText() + "\n";
    }
    for (JsonNode w : pending) {
      sb.append(
              String.format(
                  "%3d  %-32s %-8s ",
                  w.path("position").asInt(),
                  w.path("podGroup").asText(),
                  w.path("phase").asText()))
          .append(WhyCommand.blocker(w.path("blocker")))
          .append('\n');
    }
    return sb.toString();
  }
}
