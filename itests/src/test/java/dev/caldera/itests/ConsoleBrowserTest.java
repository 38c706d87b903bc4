package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser (headless Chromium through chromedriver): {@code caldera run}
 * on the demo cluster, the console shows the queue tree, a pending pod group with the reason the
 * API gives for it, and, once a plugin's jar is taken out of {@code deploy/}, that plugin as
 * missing and scheduling held. Screenshots go to {@code target/console-*.png}.
 *
 * <p>Skipped, saying what is missing, where Chromium or chromedriver is not installed (the Debian
 * packages {@code chromium} and {@code chromium-driver}; {@code .ci/run} installs them). {@code
 * CALDERA_CHROMIUM} and {@code CALDERA_CHROMEDRIVER} name other binaries.
 */
class ConsoleBrowserTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "console-test-token";

  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private RunningCaldera caldera;
  private ChromeDriver browser;

  @BeforeEach
  void browser() {
    Optional<Path> chromium =
        executable("CALDERA_CHROMIUM", "chromium", "chromium-browser", "google-chrome");
    Optional<Path> driver = executable("CALDERA_CHROMEDRIVER", "chromedriver");
    skipUnless(
        chromium.isPresent(),
        "Chromium is not installed (apt-get install chromium, or set CALDERA_CHROMIUM)");
    skipUnless(
        driver.isPresent(),
        "chromedriver is not installed (apt-get install chromium-driver, or set"
            + " CALDERA_CHROMEDRIVER)");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1400");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(driver.get().toFile()).build();
    browser = new ChromeDriver(service, options);
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (caldera != null) {
      caldera.close();
    }
  }

  /** Skips the test unless {@code present}, saying why in the build's output too. */
  private static void skipUnless(boolean present, String missing) {
    String message = "ConsoleBrowserTest skipped: " + missing;
    if (!present) {
      System.err.println(message);
    }
    assumeTrue(present, message);
  }

  /** The file named by the environment variable {@code env}, else the first name on the PATH. */
  private static Optional<Path> executable(String env, String... names) {
    String given = System.getenv(env);
    if (given != null && !given.isBlank()) {
      return Optional.of(Path.of(given)).filter(Files::isExecutable);
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : names) {
      for (String dir : path.split(File.pathSeparator)) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
          return Optional.of(Path.of(dir, name));
        }
      }
    }
    return Optional.empty();
  }

  private JsonNode api(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  private void screenshot(String name) throws IOException {
    Path target = Path.of("target");
    Files.createDirectories(target);
    Files.copy(
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(),
        target.resolve(name),
        StandardCopyOption.REPLACE_EXISTING);
  }

  /** The text of the first element {@code css} selects, read in one step (the page redraws). */
  private String text(String css) {
    Object t =
        browser.executeScript(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css);
    return String.valueOf(t);
  }

  private long refreshes() {
    return Long.parseLong(text("#refreshes"));
  }

  /** Each pending row the page shows: queue, pod group, stage and message, read in one step. */
  @SuppressWarnings("unchecked")
  private List<List<String>> pendingRows() {
    return (List<List<String>>)
        browser.executeScript(
            "return [...document.querySelectorAll('#pending table.line tr[data-pod-group]')]"
                + ".filter(r => r.querySelector('.message'))"
                + ".map(r => [r.closest('table').dataset.queue, r.dataset.podGroup,"
                + " r.querySelector('.stage').textContent, r.querySelector('.message').textContent]);");
  }

  /**
   * Each card quota bar of the queue tree: queue, model, allocated, quota, the model's inventory
   * and the text shown for it, in one step.
   */
  @SuppressWarnings("unchecked")
  private List<List<String>> quotaBars() {
    return (List<List<String>>)
        browser.executeScript(
            "return [...document.querySelectorAll('#queue-tree tr[data-queue] .quota-bar')]"
                + ".map(b => [b.closest('tr').dataset.queue, b.dataset.quota,"
                + " b.dataset.allocated, b.dataset.limit, b.dataset.inventory,"
                + " b.querySelector('.inventory').textContent]);");
  }

  /** Whether, per card model, the node rows of the nodes view add up to the model's row. */
  private boolean cardFiguresAddUp() {
    return (Boolean)
        browser.executeScript(
            "const sums = {};"
                + " document.querySelectorAll('#node-cards tr[data-card]').forEach(r => {"
                + "  const c = r.dataset.card; const cells = r.querySelectorAll('td');"
                + "  sums[c] = (sums[c] || 0) + Number(cells[3].textContent); });"
                + " const rows = [...document.querySelectorAll('#card-models tr[data-card]')];"
                + " return rows.length > 0 && rows.every(r =>"
                + "  Number(r.querySelector('.allocated').textContent) === (sums[r.dataset.card] || 0));");
  }

  @Test
  void console_showsTheQueueTree_aPendingReason_andAMissingPluginHoldingScheduling()
      throws Exception {
    Path home = RunningCaldera.copyOfDistribution(tmp);
    caldera =
        RunningCaldera.start(
            home,
            "--admin-address",
            "127.0.0.1:0",
            "--admin-token",
            TOKEN,
            "--status-interval",
            "1s",
            "--duration",
            "5m");
    String url = caldera.awaitAdminUrl();
    caldera.awaitLine("binds");

    browser.get(url);
    WebDriverWait wait = new WebDriverWait(browser, WAIT);
    wait.until(b -> text("#loop-state").equals("running"));
    assertThat(browser.getTitle()).isEqualTo("Caldera console");

    // The queue tree: the demo's two queues, each with its resources against its limits.
    Object queues =
        browser.executeScript(
            "return [...document.querySelectorAll('#queue-tree tbody tr')]"
                + ".map(r => r.dataset.queue);");
    assertThat(queues).isEqualTo(List.of("inference", "training"));
    assertThat(text("#queue-tree tr[data-queue='training']"))
        .contains("Open", "nvidia.com/gpu", "/ 40 capability");

    // Per-model card quota bars (capacity-card), as /api/queues gives them: the demo's quotas,
    // and once its workload holds cards, allocated cards on some bar.
    wait.until(b -> quotaBars().stream().anyMatch(bar -> Double.parseDouble(bar.get(2)) > 0));
    List<List<String>> bars = quotaBars();
    assertThat(bars)
        .filteredOn(bar -> bar.get(0).equals("training"))
        .extracting(bar -> bar.get(1) + " " + bar.get(3))
        .containsExactly(
            "NVIDIA-A100-SXM4-80GB 16", "NVIDIA-GeForce-RTX-4090 8", "NVIDIA-H100-80GB-HBM3 16");
    assertThat(bars)
        .filteredOn(bar -> bar.get(0).equals("inference"))
        .extracting(bar -> bar.get(1) + " " + bar.get(3))
        .containsExactly(
            "NVIDIA-A100-SXM4-80GB 6", "NVIDIA-GeForce-RTX-4090 4", "NVIDIA-H100-80GB-HBM3 6");
    JsonNode apiQueues = api(url + "api/queues").path("queues");
    for (JsonNode q : apiQueues) {
      for (JsonNode quota : q.path("quotas")) {
        assertThat(bars)
            .as("the page's bar of %s in %s", quota.path("resource").asText(), q.path("name"))
            .anySatisfy(
                bar -> {
                  assertThat(bar.get(0)).isEqualTo(q.path("name").asText());
                  assertThat(bar.get(1)).isEqualTo(quota.path("resource").asText());
                  assertThat(Double.parseDouble(bar.get(3)))
                      .isEqualTo(quota.path("limit").asDouble());
                });
      }
    }
    assertThat(text("#queue-tree tr[data-queue='training'] .quota-bar .bar-label"))
        .endsWith(" / 16 card quota");
    // Beside each card quota, the cluster's inventory of that model, as /api/nodes counts it.
    java.util.Map<String, Double> inventory = new java.util.HashMap<>();
    api(url + "api/nodes")
        .path("cards")
        .forEach(c -> inventory.put(c.path("card").asText(), c.path("inventory").asDouble()));
    assertThat(inventory).isNotEmpty();
    assertThat(bars)
        .allSatisfy(
            bar -> {
              assertThat(inventory).as("inventory of " + bar.get(1)).containsKey(bar.get(1));
              double cards = inventory.get(bar.get(1));
              assertThat(Double.parseDouble(bar.get(4))).as(bar.toString()).isEqualTo(cards);
              assertThat(bar.get(5)).as(bar.toString()).startsWith("inventory ");
              assertThat(bar.get(5).endsWith(" (below quota)"))
                  .as(bar.toString())
                  .isEqualTo(Double.parseDouble(bar.get(3)) > cards);
            });

    // A reclaim on the demo (inference takes cards back from training): the eviction is on the
    // console with the rule that allowed it, and the victim's pod group shows it, as does why.
    new WebDriverWait(browser, Duration.ofSeconds(120))
        .until(b -> !text("#evictions tr[data-pod] td.rule").isEmpty());
    JsonNode evictions = api(url + "api/evictions").path("evictions");
    JsonNode eviction = evictions.get(evictions.size() - 1);
    String victim = eviction.path("podGroup").asText();
    assertThat(eviction.path("action").asText()).isEqualTo("reclaim");
    assertThat(eviction.path("rule").asText()).contains("tidal.policy:");
    assertThat(text("#evictions")).contains(eviction.path("pod").asText(), "tidal.policy:");
    browser.executeScript(
        "document.querySelector(arguments[0]).click();",
        "#evictions a.pg[data-job='" + victim + "']");
    wait.until(b -> text("#job h3").startsWith(victim + " · "));
    wait.until(b -> text("#job .job-evictions").contains("suffered"));
    assertThat(text("#job .job-evictions")).contains(eviction.path("rule").asText());
    Process why =
        new ProcessBuilder(home.resolve("bin/caldera").toString(), "why", "--admin", url, victim)
            .redirectErrorStream(true)
            .start();
    String whyOut = new String(why.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(why.waitFor()).as(whyOut).isZero();
    assertThat(whyOut).contains("evictions:", " suffered: reclaim evicted ", "tidal.policy:");
    screenshot("console-eviction.png");

    // An opened policy stays open across refreshes.
    browser.executeScript(
        "document.querySelector(\"#policies details[data-policy='tidal.policy']\").open = true;");
    long opened = refreshes();
    wait.until(b -> refreshes() > opened + 1);
    assertThat(
            (Boolean)
                browser.executeScript(
                    "return document.querySelector(\"#policies details[data-policy='tidal.policy']\").open;"))
        .isTrue();

    // The demo's workload soon leaves pod groups waiting, each with a reason.
    wait.until(b -> !pendingRows().isEmpty());
    screenshot("console-running.png");

    // Taking capacity-card out of deploy/ holds scheduling: the console says so and why.
    Path card = caldera.deployed("caldera-plugin-capacity-card-");
    Files.move(card, tmp.resolve(card.getFileName()));
    caldera.awaitLine("SchedulingHeld");
    wait.until(b -> text("#loop-state").equals("scheduling held"));
    assertThat(text("#loop-detail")).contains("capacity-card");
    wait.until(b -> text("#plugin-table tr[data-plugin='capacity-card'] .state").equals("MISSING"));
    assertThat(
            browser
                .findElement(By.cssSelector("#plugin-table tr[data-plugin='capacity-card']"))
                .getDomAttribute("class"))
        .contains("missing");
    // Read-only until the token is given: no install or uninstall controls.
    assertThat(text("#access-mode")).isEqualTo("read-only");
    assertThat(browser.findElements(By.cssSelector("button.uninstall"))).isEmpty();
    assertThat(browser.findElement(By.id("install-form")).isDisplayed()).isFalse();

    // No session runs while held: after one more redraw the page and the API agree on the reasons.
    long held = refreshes();
    wait.until(b -> refreshes() > held);
    List<List<String>> rows = pendingRows();
    assertThat(rows).as("pending rows while held").isNotEmpty();
    for (List<String> row : rows) {
      String queue = row.get(0);
      String podGroup = row.get(1);
      JsonNode line = api(url + "api/queues/" + queue + "/pending").path("pending");
      JsonNode blocker = null;
      for (JsonNode w : line) {
        if (w.path("podGroup").asText().equals(podGroup)) {
          blocker = w.path("blocker");
        }
      }
      assertThat(blocker).as("%s in the API's line of %s", podGroup, queue).isNotNull();
      assertThat(row.get(2)).as(podGroup + " stage").isEqualTo(blocker.path("stage").asText());
      assertThat(row.get(3)).as(podGroup + " reason").isEqualTo(blocker.path("message").asText());
    }
    // capacity-card writes queue and card names in <...> ("Queue <training> has insufficient",
    // "node(s) without card <NVIDIA-A100-SXM4-80GB>"; which of them depends on the session the
    // hold froze): shown as text, equal to the API's message above, not swallowed as markup.
    assertThat(rows).anySatisfy(row -> assertThat(row.get(3)).containsPattern("<[A-Za-z][^<>]*>"));

    // The nodes and cards view (frozen with the last session while held): per model, the nodes'
    // cards add up to the model's row, and each queue's cards equal /api/queues' card quota bars.
    assertThat(cardFiguresAddUp()).isTrue();
    JsonNode frozen = api(url + "api/queues").path("queues");
    for (JsonNode q : frozen) {
      for (JsonNode quota : q.path("quotas")) {
        String css =
            "#card-models tr[data-card='"
                + quota.path("resource").asText()
                + "'] div[data-queue='"
                + q.path("name").asText()
                + "']";
        assertThat(
                Double.parseDouble(
                    String.valueOf(
                        browser.executeScript(
                            "return document.querySelector(arguments[0]).dataset.allocated;",
                            css))))
            .as(css)
            .isEqualTo(quota.path("allocated").asDouble());
      }
    }

    // Selecting a pod group shows its pods and its blocker history.
    String first = rows.get(0).get(1);
    browser.executeScript(
        "document.querySelector(arguments[0]).click();",
        "#pending tr[data-pod-group='" + first + "'] a.pg");
    wait.until(b -> text("#job h3").startsWith(first + " · "));
    assertThat(text("#job")).contains(rows.get(0).get(3));
    screenshot("console-held.png");

    // A wrong token changes nothing; the right one shows the controls, and uninstall works.
    browser.findElement(By.id("token")).sendKeys("wrong");
    browser.findElement(By.cssSelector("#token-form button[type='submit']")).click();
    wait.until(b -> text("#access-mode").equals("read-only (token refused)"));
    assertThat(browser.findElements(By.cssSelector("button.uninstall"))).isEmpty();
    browser.findElement(By.id("token")).sendKeys(TOKEN);
    browser.findElement(By.cssSelector("#token-form button[type='submit']")).click();
    wait.until(b -> text("#access-mode").startsWith("token accepted"));
    assertThat(browser.findElement(By.id("install-form")).isDisplayed()).isTrue();
    // Clicked from a timer: the page redraws every few seconds, and the click opens a dialog.
    wait.until(
        b ->
            (Boolean)
                browser.executeScript(
                    "const u = document.querySelector(arguments[0]);"
                        + " if (u) { setTimeout(() => u.click(), 0); } return u !== null;",
                    "#plugin-table tr[data-plugin='cdp'] button.uninstall"));
    wait.until(ExpectedConditions.alertIsPresent());
    browser.switchTo().alert().accept();
    wait.until(b -> text("#action-result").equals("uninstalled caldera-plugin-cdp"));
    caldera.awaitLine("BundleUninstalled");
    wait.until(b -> text("#plugin-table tr[data-plugin='cdp']").isEmpty());
  }
}
