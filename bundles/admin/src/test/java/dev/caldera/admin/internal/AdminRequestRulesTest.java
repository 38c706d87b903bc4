package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the admin server reads a request before answering it: the path decoded once, the {@code Host}
 * header, the bearer token; over raw sockets, since a client library would normalize what is sent.
 */
class AdminRequestRulesTest {

  private final FakeBackend backend = new FakeBackend();
  private AdminServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void start(String token, List<String> allowedHosts) throws IOException {
    server = new AdminServer(new InetSocketAddress("127.0.0.1", 0), token, allowedHosts, backend);
  }

  /** Status line and body of one request sent as given. */
  private Answer send(String method, String target, String... headers) throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
      s.setSoTimeout(30_000);
      StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
      boolean host = false;
      for (String h : headers) {
        host |= h.regionMatches(true, 0, "Host:", 0, 5);
        request.append(h).append("\r\n");
      }
      if (!host) {
        request.append("Host: 127.0.0.1:").append(server.address().getPort()).append("\r\n");
      }
      request.append("Connection: close\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int status = Integer.parseInt(text.substring(9, 12));
      int bodyAt = text.indexOf("\r\n\r\n");
      return new Answer(status, bodyAt < 0 ? "" : text.substring(bodyAt + 4));
    }
  }

  record Answer(int status, String body) {}

  @Test
  void aPercentEncodedPercent_isDecodedOnce_notTwiceIntoA500() throws Exception {
    start(null, List.of());

    Answer a = send("GET", "/api/queues/%25zz/pending");

    assertThat(a.status()).isEqualTo(404);
    assertThat(a.body()).contains("no queue %zz").doesNotContain("Exception", "java.");
    assertThat(backend.queuesAsked).containsExactly("%zz");
  }

  @Test
  void anEncodedSlash_isPartOfTheName_andPlusIsAPlus() throws Exception {
    start("t", List.of());

    send("GET", "/api/queues/a%2Fb/pending");
    send("GET", "/api/queues/a+b/pending");
    send("GET", "/api/queues/a%20b/pending");
    send("DELETE", "/api/bundles/x%2Fy+z", "Authorization: Bearer t");

    assertThat(backend.queuesAsked).containsExactly("a/b", "a+b", "a b");
    assertThat(backend.uninstallsAsked).containsExactly("x/y+z");
  }

  @Test
  void badPercentEncoding_isA400WithAClearMessage_andNoExceptionText() throws Exception {
    start(null, List.of());

    // A request line that is no URI (a % without two hex digits) is refused by the JDK's server
    // before any handler runs, with its own short 400 (no stack trace, no class name with package).
    for (String target : List.of("/api/queues/%zz/pending", "/api/sessions?limit=%zz")) {
      Answer a = send("GET", target);
      assertThat(a.status()).as(target).isEqualTo(400);
      assertThat(a.body()).as(target).doesNotContain("java.", "\tat ");
    }
    Answer notUtf8 = send("GET", "/api/queues/%C3%28/pending");
    assertThat(notUtf8.status()).isEqualTo(400);
    assertThat(notUtf8.body())
        .contains("path segment \\\"%C3%28\\\": the percent-encoded bytes are not UTF-8")
        .doesNotContain("Exception", "java.");
    assertThat(backend.queuesAsked).isEmpty();
  }

  @Test
  void aForeignHostName_isRefusedWith421_whileIpAddressesLocalhostAndConfiguredNamesAreServed()
      throws Exception {
    start(null, List.of("caldera.example.org"));

    Answer rebound = send("GET", "/api/conf", "Host: attacker.example.com");
    assertThat(rebound.status()).isEqualTo(421);
    assertThat(rebound.body())
        .contains("attacker.example.com", "--admin-allowed-hosts")
        .doesNotContain("actions: allocate");

    for (String host :
        List.of(
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "app.localhost:8080",
            "[::1]:8080",
            "10.1.2.3",
            "caldera.example.org:8080",
            "Caldera.Example.Org.")) {
      assertThat(send("GET", "/api/conf", "Host: " + host).status()).as(host).isEqualTo(200);
    }
  }

  @Test
  void aStarInTheAllowedHosts_servesAnyName() throws Exception {
    start(null, List.of("*"));

    assertThat(send("GET", "/healthz", "Host: anything.example.com").status()).isEqualTo(200);
  }

  @Test
  void theBearerScheme_isCaseInsensitive() throws Exception {
    start("s3cret", List.of());

    for (String scheme : List.of("Bearer", "bearer", "BEARER")) {
      assertThat(send("GET", "/api/access", "Authorization: " + scheme + " s3cret").body())
          .as(scheme)
          .contains("\"authorized\" : true");
    }
    assertThat(send("GET", "/api/access", "Authorization: Basic s3cret").body())
        .contains("\"authorized\" : false");
    assertThat(send("GET", "/api/access", "Authorization: Bearers3cret").body())
        .contains("\"authorized\" : false");
  }

  @Test
  void aTokenThatNoHeaderCanCarry_isRefusedAtStart() {
    for (String token : List.of("pässwort", "with space", "tab\there", "ключ")) {
      assertThatThrownBy(() -> start(token, List.of()))
          .as(token)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("admin token: character")
          .hasMessageContaining("not visible ASCII");
    }
    assertThat(AdminServer.tokenProblem("A-z_0.9~+/=!")).isEmpty();
  }

  @Test
  void keepAliveRequests_areNotDelayedByNagle() throws Exception {
    start(null, List.of());
    // Headers and body go out as two writes; with Nagle's algorithm the body waits for the
    // client's delayed acknowledgement (~40 ms) on every kept-alive request. The JDK server reads
    // this property when its first server starts (a timed check would be a timed unit test).
    assertThat(System.getProperty("sun.net.httpserver.nodelay")).isEqualTo("true");
    assertThat(send("GET", "/healthz").status()).isEqualTo(200);
  }
}
