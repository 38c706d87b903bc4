package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The probes' own listener answers while slow clients hold every worker of the admin API. */
class ProbeServerTest {

  private final FakeBackend backend = new FakeBackend();
  private final HttpClient http = HttpClient.newHttpClient();
  private AdminServer admin;
  private ProbeServer probes;

  @AfterEach
  void stop() {
    if (probes != null) {
      probes.close();
    }
    if (admin != null) {
      admin.close();
    }
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(20))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void probes_answerWhile200SlowClientsHoldTheAdminPort() throws Exception {
    admin = new AdminServer(new InetSocketAddress("127.0.0.1", 0), null, backend);
    probes = new ProbeServer(new InetSocketAddress("127.0.0.1", 0), backend);
    int adminPort = admin.address().getPort();
    List<Socket> slow = new ArrayList<>();
    AtomicBoolean trickling = new AtomicBoolean(true);
    Thread trickle = null;
    try {
      // Half idle after the request line, half sending their headers a byte at a time.
      for (int i = 0; i < 200; i++) {
        Socket s = new Socket("127.0.0.1", adminPort);
        s.getOutputStream().write("GET /api/conf HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        slow.add(s);
      }
      List<Socket> trickled = List.copyOf(slow.subList(0, 100));
      trickle =
          new Thread(
              () -> {
                byte[] header =
                    "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes();
                for (int i = 0; trickling.get() && i < header.length; i++) {
                  for (Socket s : trickled) {
                    try {
                      OutputStream out = s.getOutputStream();
                      out.write(header[i]);
                      out.flush();
                    } catch (IOException closed) {
                      // the server gave up on it: fine
                    }
                  }
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "slow-clients");
      trickle.start();

      for (int round = 0; round < 3; round++) {
        HttpResponse<String> health = get(probes.address().getPort(), "/healthz");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\" : \"ok\"");
        assertThat(get(probes.address().getPort(), "/readyz").statusCode()).isEqualTo(200);
      }
    } finally {
      trickling.set(false);
      if (trickle != null) {
        trickle.interrupt();
        trickle.join();
      }
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void probes_sayWhatTheAdminPortSays_andServeNothingElse() throws Exception {
    backend.holding = true;
    probes = new ProbeServer(new InetSocketAddress("127.0.0.1", 0), backend);
    int port = probes.address().getPort();

    HttpResponse<String> ready = get(port, "/readyz");
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("holding", "capacity");
    assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
    HttpResponse<String> other = get(port, "/api/conf");
    assertThat(other.statusCode()).isEqualTo(404);
    assertThat(other.body()).contains("this port serves /healthz and /readyz");

    backend.loopRunning = false;
    assertThat(get(port, "/healthz").statusCode()).isEqualTo(503);
  }
}
