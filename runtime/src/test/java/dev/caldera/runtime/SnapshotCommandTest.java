package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code caldera snapshot} against a stand-in for a running scheduler's admin API. */
class SnapshotCommandTest {

  private static final String SCENARIO = "name: snap\nconf: {}\nobjects: []\n";

  @TempDir Path dir;

  private final CommandRun cli = new CommandRun();
  private final AtomicReference<String> seenAuthorization = new AtomicReference<>();
  private final AtomicReference<String> seenQuery = new AtomicReference<>();
  private HttpServer server;
  private String url;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/api/snapshot",
        ex -> {
          String auth = ex.getRequestHeaders().getFirst("Authorization");
          seenAuthorization.set(auth);
          seenQuery.set(ex.getRequestURI().getRawQuery());
          boolean ok = "Bearer s3cret".equals(auth);
          byte[] body =
              (ok ? SCENARIO : "{\"error\": \"GET /api/snapshot needs the header\"}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(ok ? 200 : 401, body.length);
          try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void writesWhatTheSchedulerServes_withTheToken() {
    int exit = cli.run("snapshot", "--admin", url, "--admin-token", "s3cret");

    assertThat(exit).as(cli.err()).isZero();
    assertThat(cli.out()).isEqualTo(SCENARIO);
    assertThat(seenAuthorization.get()).isEqualTo("Bearer s3cret");
    assertThat(seenQuery.get()).isNull();
  }

  @Test
  void dropUnread_andOutputFile() throws IOException {
    Path file = dir.resolve("cluster.yaml");
    int exit =
        cli.run(
            "snapshot",
            "--admin",
            url + "/",
            "--admin-token",
            "s3cret",
            "--drop-unread",
            "--anonymize",
            "-o",
            file.toString());

    assertThat(exit).as(cli.err()).isZero();
    assertThat(Files.readString(file)).isEqualTo(SCENARIO);
    assertThat(cli.out()).isEmpty();
    assertThat(seenQuery.get()).isEqualTo("dropUnread=true&anonymize=true");
  }

  @Test
  void aRefusal_isOneErrorLineWithTheStatus_andExitOne() {
    int exit = cli.run("snapshot", "--admin", url, "--admin-token", "wrong");

    assertThat(exit).isEqualTo(1);
    assertThat(cli.err()).startsWith("error: " + url + "/api/snapshot: HTTP 401: ");
    assertThat(cli.out()).isEmpty();
  }

  @Test
  void noSchedulerThere_isOneErrorLine() {
    server.stop(0);
    int exit = cli.run("snapshot", "--admin", url, "--admin-token", "s3cret");

    assertThat(exit).isEqualTo(1);
    assertThat(cli.err()).startsWith("error: cannot reach the scheduler's admin API at " + url);
  }
}
