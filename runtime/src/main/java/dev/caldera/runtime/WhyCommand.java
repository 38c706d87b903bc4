package dev.caldera.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera why NS/NAME}: asks a running scheduler why a pod group waits and prints its place
 * in line, what stopped it (with the numbers), its pods and its recent blockers.
 */
@Command(
    name = "why",
    mixinStandardHelpOptions = true,
    description = "Ask a running scheduler why a pod group is pending and where it is in line.")
final class WhyCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Mixin AdminAddress admin;

  @Parameters(paramLabel = "NS/NAME", description = "The pod group, namespace/name.")
  String podGroup;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "text|json",
      description = "text (default) or json: the admin API's answer as it is.")
  String output = "text";

  @Override
  public Integer call() {
    if (!isPodGroup(podGroup)) {
      throw new ParameterException(
          spec.commandLine(), "expected NAMESPACE/NAME of a pod group, got " + podGroup);
    }
    if (!output.equals("text") && !output.equals("json")) {
      throw new ParameterException(
          spec.commandLine(), "--output: expected text or json, got " + output);
    }
    return ask(admin, podGroup, output, parent.out(), parent.err());
  }

  /**
   * Asks for {@code podGroup} (a valid {@code NAMESPACE/NAME}) and prints the answer, as text or
   * ({@code output} {@code json}) as the API gives it; 1 with an {@code error:} line when the API
   * cannot answer.
   */
  static int ask(
      AdminAddress admin, String podGroup, String output, PrintStream out, PrintStream err) {
    int slash = podGroup.indexOf('/');
    JsonNode body;
    try {
      body =
          new AdminClient(admin)
              .get(
                  "/api/jobs/"
                      + enc(podGroup.substring(0, slash))
                      + "/"
                      + enc(podGroup.substring(slash + 1)));
    } catch (AdminClient.AdminError e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
    if (output.equals("json")) {
      out.println(body.toPrettyString());
      return 0;
    }
    out.print(explain(body));
    return 0;
  }

  /** Whether {@code podGroup} is {@code NAMESPACE/NAME}, both parts non-empty. */
  static boolean isPodGroup(String podGroup) {
    int slash = podGroup.indexOf('/');
    return slash > 0 && slash < podGroup.length() - 1 && podGroup.indexOf('/', slash + 1) < 0;
  }

  private static String enc(String s) {
    return AdminClient.segment(s);
  }

  /** The answer of {@code /api/jobs/{ns}/{name}} for a person. */
  static String explain(JsonNode body) {
    JsonNode job = body.path("job");
    String name = job.path("podGroup").asText();
    String queue = job.path("queue").asText();
    StringBuilder sb = new StringBuilder();
    JsonNode waiting = job.path("waiting");
    if (waiting.isMissingNode() || waiting.isNull()) {
      sb.append(name)
          .append(" is not pending: phase ")
          .append(job.path("phase").asText())
          .append(" in queue ")
          .append(queue)
          .append('\n');
    } else {
      int position = waiting.path("position").asInt();
      sb.append(name);
      if (position > 0) {
        List<String> ahead = new ArrayList<>();
        body.path("ahead").forEach(a -> ahead.add(a.asText()));
        sb.append(" is ")
            .append(dev.caldera.sim.SessionReport.ordinal(position))
            .append(" in queue ")
            .append(queue);
        if (!ahead.isEmpty()) {
          sb.append(" (")
              .append(ahead.size())
              .append(" ahead: ")
              .append(String.join(", ", ahead.subList(0, Math.min(5, ahead.size()))))
              .append(ahead.size() > 5 ? ", …" : "")
              .append(')');
        }
      } else {
        sb.append(" is in no line");
      }
      sb.append("; ").append(blocker(waiting.path("blocker"))).append('\n');
      if (!waiting.path("lastTried").isNull() && waiting.has("lastTried")) {
        sb.append("  last tried ").append(time(waiting.path("lastTried").asText()));
      } else {
        sb.append("  not tried yet");
      }
      if (waiting.hasNonNull("since")) {
        sb.append("; blocked so since ").append(time(waiting.path("since").asText()));
      }
      sb.append('\n');
      figuresAndCounts(waiting.path("blocker"), sb);
    }
    JsonNode tasks = job.path("tasks");
    if (tasks.size() > 0) {
      sb.append("pods:\n");
      for (JsonNode t : tasks) {
        sb.append("  ")
            .append(t.path("name").asText())
            .append(' ')
            .append(t.path("phase").asText());
        if (!t.path("node").asText().isEmpty()) {
          sb.append(" on ").append(t.path("node").asText());
        } else if (!t.path("reason").asText().isEmpty()) {
          sb.append(": ").append(t.path("reason").asText());
        }
        sb.append('\n');
      }
    }
    JsonNode holding = job.path("holding");
    if (holding.size() > 0) {
      sb.append("held for it:\n");
      for (JsonNode h : holding) {
        sb.append("  ").append(h.asText()).append('\n');
      }
    }
    JsonNode evictions = job.path("evictions");
    if (evictions.size() > 0) {
      sb.append("evictions:\n");
      for (JsonNode e : evictions) {
        boolean suffered = e.path("podGroup").asText().equals(name);
        sb.append("  ")
            .append(time(e.path("time").asText()))
            .append(suffered ? " suffered: " : " caused: ")
            .append(e.path("message").asText())
            .append('\n');
      }
    }
    JsonNode history = job.path("history");
    if (history.size() > 1) {
      sb.append("earlier:\n");
      for (int i = 0; i < history.size() - 1; i++) {
        JsonNode h = history.get(i);
        sb.append("  ")
            .append(time(h.path("since").asText()))
            .append(" – ")
            .append(time(h.path("until").asText()))
            .append(": ")
            .append(blocker(h.path("blocker")))
            .append('\n');
      }
    }
    return sb.toString();
  }

  /** An instant as the API writes it, to the second ({@code 2026-11-24T11:12:45Z}). */
  static String time(String instant) {
    try {
      return java.time.Instant.parse(instant)
          .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
          .toString();
    } catch (java.time.format.DateTimeParseException e) {
      return instant;
    }
  }

  /** The blocker's figures and counts ({@link Blocker#details()}), one indented line each. */
  static void figuresAndCounts(JsonNode b, StringBuilder sb) {
    Blocker blocker;
    try {
      blocker = JSON.treeToValue(b, Blocker.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return;
    }
    blocker.details().forEach(line -> sb.append("  ").append(line).append('\n'));
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** {@code blocked at enqueue: <message> (plugin p)}. */
  static String blocker(JsonNode b) {
    String action = b.path("action").asText();
    String plugin = b.path("plugin").asText();
    StringBuilder sb = new StringBuilder("blocked");
    if (!action.isEmpty()) {
      sb.append(" at ").append(action);
    }
    sb.append(": ").append(b.path("message").asText());
    if (!plugin.isEmpty() && !b.path("message").asText().contains(plugin)) {
      sb.append(" (plugin ").append(plugin).append(')');
    }
    return sb.toString();
  }
}
