package dev.caldera.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.info.Blocker;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera nodes}: a running scheduler's nodes and cards: per card model the inventory, what
 * is allocated and free, and each queue's cards against its quota; per node its cards and which
 * queues hold them; the pod groups that can never fit.
 */
@Command(
    name = "nodes",
    mixinStandardHelpOptions = true,
    description =
        "Show a running scheduler's nodes and cards per model (whole, MIG, MPS): capacity,"
            + " allocated, free, which queues hold them, and what can never fit.")
final class NodesCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Mixin AdminAddress admin;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "text|json",
      description = "text (default) or json: the admin API's answer as it is.")
  String output = "text";

  @Override
  public Integer call() {
    if (!output.equals("text") && !output.equals("json")) {
      throw new ParameterException(
          spec.commandLine(), "--output: expected text or json, got " + output);
    }
    PrintStream out = parent.out();
    JsonNode body;
    try {
      body = new AdminClient(admin).get("/api/nodes");
    } catch (AdminClient.AdminError e) {
      parent.err().println("error: " + e.getMessage());
      return 1;
    }
    out.print(output.equals("json") ? body.toPrettyString() + "\n" : show(body));
    return 0;
  }

  private static String n(JsonNode v) {
    return Blocker.Figure.format(v.asDouble());
  }

  /** The cards per model, then per node, then what can never fit. */
  static String show(JsonNode body) {
    StringBuilder sb = new StringBuilder();
    JsonNode cards = body.path("cards");
    if (cards.size() == 0) {
      sb.append("no cards (no node has card labels, or no plugin reports cards: capacity-card)\n");
    } else {
      sb.append(
          String.format(
              "%-44s %-6s %9s %9s %6s  %s%n",
              "CARD", "KIND", "INVENTORY", "ALLOCATED", "FREE", "QUEUES (allocated / quota)"));
      for (JsonNode c : cards) {
        List<String> queues = new ArrayList<>();
        for (JsonNode q : c.path("queues")) {
          double quota = q.path("quota").asDouble();
          queues.add(
              q.path("queue").asText()
                  + " "
                  + n(q.path("allocated"))
                  + " / "
                  + (quota < 0 ? "no quota" : n(q.path("quota")))
                  + (q.path("overInventory").asBoolean() ? " (quota above inventory)" : ""));
        }
        sb.append(
            String.format(
                "%-44s %-6s %9s %9s %6s  %s%n",
                c.path("card").asText(),
                c.path("kind").asText(),
                n(c.path("inventory")),
                n(c.path("allocated")),
                n(c.path("free")),
                String.join(", ", queues)));
      }
    }
    sb.append('\n')
        .append(
            String.format(
                "%-20s %-44s %8s %9s %6s  %s%n",
                "NODE", "CARD", "CAPACITY", "ALLOCATED", "FREE", "QUEUES"));
    for (JsonNode node : body.path("nodes")) {
      JsonNode nodeCards = node.path("cards");
      if (nodeCards.size() == 0) {
        sb.append(String.format("%-20s %-44s%n", node.path("name").asText(), "-"));
        continue;
      }
      for (JsonNode c : nodeCards) {
        List<String> holders = new ArrayList<>();
        c.path("queues").properties().forEach(e -> holders.add(e.getKey() + " " + n(e.getValue())));
        sb.append(
            String.format(
                "%-20s %-44s %8s %9s %6s  %s%n",
                node.path("name").asText(),
                c.path("card").asText(),
                n(c.path("capacity")),
                n(c.path("allocated")),
                Blocker.Figure.format(
                    Math.max(0, c.path("capacity").asDouble() - c.path("allocated").asDouble())),
                String.join(", ", holders)));
      }
    }
    JsonNode never = body.path("neverFits");
    if (never.size() > 0) {
      sb.append("\nnever fits:\n");
      for (JsonNode f : never) {
        sb.append("  ").append(f.path("message").asText()).append('\n');
      }
    }
    return sb.toString();
  }
}
