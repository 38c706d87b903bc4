package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The web console as the admin server serves it: the page for browsers, the text index for other
 * clients, its script and style sheet, and the access endpoint its write controls follow. Whether
 * it draws the right things is {@code ConsoleBrowserTest} (itests), in a real browser.
 */
class ConsoleTest {

  private static final String BROWSER_ACCEPT =
      "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

  private final FakeBackend backend = new FakeBackend();
  private final HttpClient http = HttpClient.newHttpClient();
  private AdminServer server;

  private void start(String token) throws IOException {
    server = new AdminServer(new InetSocketAddress("127.0.0.1", 0), token, backend);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String resource(String name) throws IOException {
    try (InputStream in =
        ConsoleTest.class.getResourceAsStream("/dev/caldera/admin/console/" + name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void root_isTheConsoleForABrowser_andTheTextIndexForOtherClients() throws Exception {
    start(null);
    HttpResponse<String> page = get("/", "Accept", BROWSER_ACCEPT);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'self'"));
    assertThat(page.body()).contains("<title>Caldera console</title>", "/console/console.js");

    HttpResponse<String> curl = get("/", "Accept", "*/*");
    assertThat(curl.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    assertThat(curl.body()).startsWith("Caldera admin").contains("GET /api/queues");
    assertThat(get("/").body()).startsWith("Caldera admin");

    HttpResponse<String> index = get("/api", "Accept", BROWSER_ACCEPT);
    assertThat(index.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
    assertThat(index.body()).startsWith("Caldera admin");
  }

  @Test
  void scriptAndStyleSheet_areServed_andNothingElseUnderConsole() throws Exception {
    start(null);
    HttpResponse<String> js = get("/console/console.js");
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
    assertThat(js.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(js.body()).isEqualTo(resource("console.js"));
    HttpResponse<String> css = get("/console/console.css");
    assertThat(css.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));

    assertThat(get("/console/index.html").statusCode()).isEqualTo(404);
    assertThat(get("/console/AdminServer.class").statusCode()).isEqualTo(404);
    assertThat(get("/console/%2e%2e/internal/AdminServer.class").statusCode()).isEqualTo(404);
  }

  @Test
  void access_saysWhetherATokenIsConfigured_andWhetherTheRequestCarriesIt() throws Exception {
    start(null);
    assertThat(get("/api/access").body())
        .contains("\"tokenConfigured\" : false", "\"authorized\" : false");
    assertThat(get("/api/access", "Authorization", "Bearer anything").body())
        .contains("\"authorized\" : false");
    server.close();

    start("t0ken");
    assertThat(get("/api/access").body())
        .contains("\"tokenConfigured\" : true", "\"authorized\" : false");
    assertThat(get("/api/access", "Authorization", "Bearer wrong").body())
        .contains("\"authorized\" : false");
    assertThat(get("/api/access", "Authorization", "Bearer t0ken").body())
        .contains("\"authorized\" : true");
  }

  @Test
  void everyApiPathTheScriptReads_isAnswered() throws Exception {
    start(null);
    Matcher m = Pattern.compile("get\\('(/api/[^']*)'\\)").matcher(resource("console.js"));
    List<String> paths = new ArrayList<>();
    while (m.find()) {
      paths.add(m.group(1));
    }
    assertThat(paths).contains("/api/status", "/api/queues", "/api/plugins", "/api/access");
    for (String path : paths) {
      assertThat(get(path).statusCode()).as(path).isEqualTo(200);
    }
    // Built from a queue's or a pod group's name.
    assertThat(get("/api/queues/training/pending").statusCode()).isEqualTo(200);
    assertThat(get("/api/jobs/ml/train-7").statusCode()).isEqualTo(200);
  }

  @Test
  void theConsole_putsNoDataInMarkup_andLoadsNothingFromElsewhere() throws Exception {
    String js = resource("console.js");
    assertThat(js)
        .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(")
        .doesNotContain("http://", "https://");
    for (String name : List.of("index.html", "console.css")) {
      assertThat(resource(name)).as(name).doesNotContain("http://", "https://");
    }
    String page = resource("index.html");
    assertThat(page).doesNotContain("<script>", "style=");
    assertThat(Pattern.compile("\\son[a-z]+\\s*=").matcher(page).find())
        .as("an inline event handler in index.html")
        .isFalse();
  }
}
