package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.caldera.framework.loop.TerminalText;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code caldera why} and {@code caldera queues} print what the cluster named (a card name, a pod
 * group, a message) with its escape sequences and bidirectional controls made visible: an admin
 * server here answers with hostile text.
 */
class ClusterTextOnTerminalTest {

  /** Clears the screen, sets the window title, reverses the rest of the line; C1 CSI; DEL. */
  private static final String EVIL = "\\u001b[2J\\u001b]0;pwned\\u0007\\u202Egpu\\u009b31m\\u007f";

  private HttpServer server;
  private final List<String> paths = new ArrayList<>();
  private final CommandRun cmd = new CommandRun();

  private static final Map<String, String> ANSWERS =
      Map.of(
          "/api/jobs/ml/train%20" + "7",
          "{\"job\":{\"podGroup\":\"ml/train-7"
              + EVIL
              + "\",\"queue\":\"training"
              + EVIL
              + "\","
              + "\"waiting\":{\"position\":1,\"blocker\":{\"stage\":\"CARD_QUOTA\","
              + "\"action\":\"enqueue\",\"plugin\":\"capacity-card\",\"message\":\"card <"
              + EVIL
              + "> quota\",\"figures\":[],\"nodeCounts\":{\"no card "
              + EVIL
              + "\":3}},\"lastTried\":null},"
              + "\"tasks\":[{\"name\":\"p0"
              + EVIL
              + "\",\"phase\":\"Pending\",\"node\":\"\",\"reason\":\"why "
              + EVIL
              + "\"}],\"history\":[]}}",
          "/api/queues",
          "{\"queues\":[{\"name\":\"training"
              + EVIL
              + "\",\"parent\":\"\",\"state\":\"Open\",\"weight\":1,\"pending\":1,"
              + "\"allocated\":{\"nvidia.com/gpu"
              + EVIL
              + "\":1},\"quotas\":[{\"resource\":\"card"
              + EVIL
              + "\",\"allocated\":1,\"limit\":2,\"limitName\":\"card quota\"}]}],"
              + "\"orphans\":[{\"podGroup\":\"x/y"
              + EVIL
              + "\",\"blocker\":{\"message\":\"no queue "
              + EVIL
              + "\"}}]}",
          "/api/queues/training/pending",
          "{\"queue\":\"training\",\"pending\":[{\"position\":1,\"podGroup\":\"ml/a"
              + EVIL
              + "\",\"phase\":\"Pending\",\"blocker\":{\"action\":\"enqueue\",\"message\":\"m "
              + EVIL
              + "\"}}]}",
          "/api/queues/nope/pending",
          "{\"error\":\"no queue nope" + EVIL + "\"}");

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          String path = ex.getRequestURI().getRawPath();
          paths.add(path);
          String body = ANSWERS.get(path);
          byte[] bytes =
              (body == null ? "{\"error\":\"no such resource\"}" : body)
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(body == null || path.contains("nope") ? 404 : 200, bytes.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String admin() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void assertSafe(String printed) {
    for (char c : printed.toCharArray()) {
      if (c != '\n') {
        assertThat(TerminalText.unsafe(c))
            .as("U+%04X printed raw in:%n%s", (int) c, printed)
            .isFalse();
      }
    }
  }

  @Test
  void why_printsTheClustersTextWithControlsEscaped() {
    assertThat(cmd.run("why", "--admin", admin(), "ml/train 7")).isEqualTo(0);

    assertThat(paths).containsExactly("/api/jobs/ml/train%207");
    assertSafe(cmd.out());
    assertThat(cmd.out())
        .contains("ml/train-7\\u001B[2J\\u001B]0;pwned\\u0007\\u202Egpu\\u009B31m\\u007F")
        .contains("card <\\u001B[2J")
        .contains("p0\\u001B[2J");
  }

  @Test
  void queues_printsTheClustersTextWithControlsEscaped() {
    assertThat(cmd.run("queues", "--admin", admin())).isEqualTo(0);
    assertThat(cmd.run("queues", "--admin", admin(), "training")).isEqualTo(0);

    assertSafe(cmd.out());
    assertThat(cmd.out())
        .contains("training\\u001B[2J", "card\\u001B[2J", "x/y\\u001B[2J", "ml/a\\u001B[2J");
  }

  @Test
  void anErrorFromTheScheduler_isEscapedToo() {
    assertThat(cmd.run("queues", "--admin", admin(), "nope")).isEqualTo(1);

    assertSafe(cmd.err());
    assertThat(cmd.err()).contains("no queue nope\\u001B[2J");
  }
}
