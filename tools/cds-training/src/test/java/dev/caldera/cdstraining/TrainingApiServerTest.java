package dev.caldera.cdstraining;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingApiServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path demo;

  private static HttpClient client(TrainingApiServer api) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .sslContext(api.clientContext())
        .build();
  }

  @Test
  void listsTheDemoObjectsAndTheGangs_holdsWatches_andCountsBinds() throws Exception {
    Files.writeString(
        demo.resolve("nodes.yaml"),
        """
        # two nodes
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n2}
        """);
    Files.writeString(
        demo.resolve("priorityclasses.yaml"),
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 10\n");
    try (TrainingApiServer api = TrainingApiServer.start(demo, 2)) {
      HttpClient http = client(api);
      assertThat(names(api, "/api/v1/nodes?resourceVersion=0")).containsExactly("n1", "n2");
      assertThat(names(api, "/apis/scheduling.k8s.io/v1/priorityclasses")).containsExactly("high");
      assertThat(names(api, "/api/v1/pods"))
          .containsExactly(
              "training-gang-0-0",
              "training-gang-0-1",
              "training-gang-1-0",
              "training-gang-1-1",
              "training-unfit-0",
              "training-unfit-1");
      assertThat(api.pods()).as("the pods that can be bound").isEqualTo(4);
      assertThat(names(api, "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups"))
          .containsExactly("training-gang-0", "training-gang-1", "training-unfit");
      assertThat(names(api, "/apis/scheduling.volcano.sh/v1beta1/namespaces/other/podgroups"))
          .isEmpty();
      assertThat(names(api, "/api/v1/persistentvolumes")).isEmpty();
      JsonNode pod = get(api, "/api/v1/pods").path("items").get(0);
      assertThat(pod.path("spec").path("schedulerName").asText()).isEqualTo("volcano");
      assertThat(
              pod.path("metadata")
                  .path("annotations")
                  .path("scheduling.k8s.io/group-name")
                  .asText())
          .isEqualTo("training-gang-0");

      HttpResponse<java.util.stream.Stream<String>> watch =
          http.send(
              request(api, "/api/v1/pods?watch=true&allowWatchBookmarks=true").build(),
              HttpResponse.BodyHandlers.ofLines());
      java.util.Iterator<String> events = watch.body().iterator();
      JsonNode bookmark = JSON.readTree(events.next());
      assertThat(bookmark.path("type").asText()).isEqualTo("BOOKMARK");
      assertThat(bookmark.path("object").path("kind").asText()).isEqualTo("Pod");
      assertThat(bookmark.path("object").path("apiVersion").asText()).isEqualTo("v1");
      HttpResponse<java.util.stream.Stream<String>> emptyKind =
          http.send(
              request(
                      api,
                      "/apis/storage.k8s.io/v1/storageclasses?watch=true&allowWatchBookmarks=true")
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      JsonNode storage = JSON.readTree(emptyKind.body().iterator().next()).path("object");
      assertThat(storage.path("kind").asText())
          .as("a bookmark names its kind when the server holds none of it")
          .isEqualTo("StorageClass");
      assertThat(storage.path("apiVersion").asText()).isEqualTo("storage.k8s.io/v1");

      String binding =
          "{\"kind\":\"Binding\",\"metadata\":{\"name\":\"training-gang-0-0\"},"
              + "\"target\":{\"kind\":\"Node\",\"name\":\"n2\"}}";
      HttpResponse<String> bind =
          http.send(
              request(api, "/api/v1/namespaces/default/pods/training-gang-0-0/binding")
                  .POST(HttpRequest.BodyPublishers.ofString(binding))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(bind.statusCode()).isEqualTo(201);
      java.security.cert.X509Certificate serving =
          (java.security.cert.X509Certificate)
              bind.sslSession().orElseThrow().getPeerCertificates()[0];
      assertThat(serving.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
      assertThat(serving.getSubjectAlternativeNames()).containsExactly(List.of(7, "127.0.0.1"));
      assertThat(bind.body()).isEqualTo(binding);
      assertThat(api.binds()).isEqualTo(1);
      JsonNode modified = JSON.readTree(events.next());
      assertThat(modified.path("type").asText()).isEqualTo("MODIFIED");
      assertThat(modified.path("object").path("metadata").path("name").asText())
          .isEqualTo("training-gang-0-0");
      assertThat(modified.path("object").path("spec").path("nodeName").asText()).isEqualTo("n2");
      assertThat(
              http.send(
                      request(api, "/apis/metrics.k8s.io/v1beta1/nodes").build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode())
          .isEqualTo(404);
    }
  }

  @Test
  void aRequestWithoutAToken_isUnauthorized() throws Exception {
    try (TrainingApiServer api = TrainingApiServer.start(demo, 0)) {
      HttpResponse<String> response =
          client(api)
              .send(
                  HttpRequest.newBuilder(URI.create(api.url() + "/api/v1/nodes")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(401);
      assertThat(JSON.readTree(response.body()).path("reason").asText()).isEqualTo("Unauthorized");
    }
  }

  @Test
  void aClientThatDoesNotTrustItsAuthority_cannotConnect() throws Exception {
    try (TrainingApiServer api = TrainingApiServer.start(demo, 0)) {
      HttpClient untrusting = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      assertThatThrownBy(
              () ->
                  untrusting.send(
                      request(api, "/api/v1/nodes").build(), HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
    }
  }

  @Test
  void itsTlsAsksForAClientCertificate_withoutRequiringOne() throws Exception {
    javax.net.ssl.SSLParameters parameters = TrainingTls.create().serverParameters();
    assertThat(parameters.getWantClientAuth()).isTrue();
    assertThat(parameters.getNeedClientAuth()).isFalse();
  }

  @Test
  void aDemoFileThatIsNotYaml_isAnErrorNamingIt() throws Exception {
    Path broken = demo.resolve("queues.yaml");
    Files.writeString(broken, "kind: [");
    assertThatThrownBy(() -> TrainingApiServer.start(demo, 1))
        .isInstanceOf(java.io.IOException.class)
        .hasMessageStartingWith("cannot read " + broken + ": ");
  }

  @Test
  void itsKubeconfigNamesItsHttpsUrl_itsAuthority_andAToken() throws Exception {
    try (TrainingApiServer api = TrainingApiServer.start(demo, 0)) {
      Path kubeconfig = demo.resolve("kubeconfig");
      api.writeKubeconfig(kubeconfig);
      assertThat(api.url()).startsWith("https://127.0.0.1:");
      assertThat(Files.readString(kubeconfig)).contains("server: '" + api.url() + "'");
      JsonNode config =
          new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(kubeconfig.toFile());
      JsonNode cluster = config.path("clusters").get(0).path("cluster");
      String pem =
          new String(
              java.util.Base64.getDecoder()
                  .decode(cluster.path("certificate-authority-data").asText()),
              java.nio.charset.StandardCharsets.US_ASCII);
      java.security.cert.X509Certificate authority =
          (java.security.cert.X509Certificate)
              java.security.cert.CertificateFactory.getInstance("X.509")
                  .generateCertificate(
                      new java.io.ByteArrayInputStream(
                          pem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
      assertThat(authority.getBasicConstraints()).as("a certificate authority").isNotNegative();
      assertThat(config.path("users").get(0).path("user").path("token").asText())
          .isEqualTo(TrainingApiServer.TOKEN);
      assertThat(config.path("current-context").asText()).isEqualTo("training");
      assertThat(config.path("contexts").get(0).path("context").path("cluster").asText())
          .isEqualTo("training");
      assertThat(config.path("clusters").get(0).path("cluster").path("server").asText())
          .isEqualTo(api.url());
    }
  }

  private static List<String> names(TrainingApiServer api, String path) throws Exception {
    List<String> names = new ArrayList<>();
    get(api, path).path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    return names;
  }

  private static JsonNode get(TrainingApiServer api, String path) throws Exception {
    HttpResponse<String> response =
        client(api).send(request(api, path).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static HttpRequest.Builder request(TrainingApiServer api, String path) {
    return HttpRequest.newBuilder(URI.create(api.url() + path))
        .header("Authorization", "Bearer " + TrainingApiServer.TOKEN)
        .timeout(Duration.ofSeconds(10));
  }
}
