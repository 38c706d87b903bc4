package dev.caldera.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code caldera queue close|drain|open NAME}: a queue's lifecycle, through a running scheduler's
 * admin API ({@code POST /api/queues/NAME/COMMAND}, with the admin token).
 */
@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    description = {
      "Close, drain or open a queue of a running scheduler (needs the admin token).",
      "close: no new pod group is admitted, what runs goes on; the queue is Closing, then Closed"
          + " once nothing of it runs.",
      "drain: close, and evict what runs (PodDisruptionBudgets honoured).",
      "open: admit pod groups again; a drain stops.",
      "Exit status: 0 done, 1 refused (no such queue, Volcano keeps queue states, no token), 2"
          + " usage error."
    })
final class QueueCommand implements Callable<Integer> {

  /** What the command may do. */
  enum Verb {
    close,
    drain,
    open
  }

  @ParentCommand CalderaCommand parent;

  @Mixin AdminAddress admin;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description = "The admin token (default: $CALDERA_ADMIN_TOKEN).")
  String token;

  @Parameters(index = "0", paramLabel = "close|drain|open", description = "What to do.")
  Verb verb;

  @Parameters(index = "1", paramLabel = "NAME", description = "The queue.")
  String queue;

  @Override
  public Integer call() {
    String t = token != null ? token : System.getenv("CALDERA_ADMIN_TOKEN");
    AdminClient client = new AdminClient(admin, t, Duration.ofSeconds(30));
    try {
      JsonNode r = client.post("/api/queues/" + AdminClient.segment(queue) + "/" + verb.name());
      parent
          .out()
          .println(
              "queue "
                  + r.path("queue").asText()
                  + ": "
                  + r.path("state").asText()
                  + (r.path("message").asText().isEmpty()
                      ? ""
                      : " (" + r.path("message").asText() + ")"));
    } catch (AdminClient.AdminError e) {
      parent.err().println("error: " + e.getMessage());
      return 1;
    }
    return 0;
  }
}
