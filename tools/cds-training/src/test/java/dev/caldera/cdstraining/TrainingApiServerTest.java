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
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingApiServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path demo;

  private final HttpClient http = HttpClient.newHttpClient();

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
      assertThat(names(api, "/api/v1/nodes?resourceVersion=0")).containsExactly("n1", "n2");
      assertThat(names(api, "/apis/scheduling.k8s.io/v1/priorityclasses")).containsExactly("high");
      assertThat(names(api, "/api/v1/pods"))
          .containsExactly(
              "training-gang-0-0", "training-gang-0-1", "training-gang-1-0", "training-gang-1-1");
      assertThat(names(api, "/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups"))
          .containsExactly("training-gang-0", "training-gang-1");
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

      CompletableFuture<HttpResponse<String>> watch =
          http.sendAsync(
              request(api, "/api/v1/pods?watch=true").build(),
              HttpResponse.BodyHandlers.ofString());
      Thread.sleep(200);
      assertThat(watch).as("a watch stays open").isNotDone();

      HttpResponse<String> bind =
          http.send(
              request(api, "/api/v1/namespaces/default/pods/training-gang-0-0/binding")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"kind\":\"Binding\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(bind.statusCode()).isEqualTo(201);
      assertThat(bind.body()).isEqualTo("{\"kind\":\"Binding\"}");
      assertThat(api.binds()).isEqualTo(1);
      assertThat(
              http.send(
                      request(api, "/apis/metrics.k8s.io/v1beta1/nodes").build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode())
          .isEqualTo(404);
    }
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
  void itsKubeconfigNamesItsUrl() throws Exception {
    try (TrainingApiServer api = TrainingApiServer.start(demo, 0)) {
      Path kubeconfig = demo.resolve("kubeconfig");
      api.writeKubeconfig(kubeconfig);
      assertThat(Files.readString(kubeconfig)).contains("server: '" + api.url() + "'");
      JsonNode config =
          new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(kubeconfig.toFile());
      assertThat(config.path("current-context").asText()).isEqualTo("training");
      assertThat(config.path("contexts").get(0).path("context").path("cluster").asText())
          .isEqualTo("training");
      assertThat(config.path("clusters").get(0).path("cluster").path("server").asText())
          .isEqualTo(api.url());
    }
  }

  private List<String> names(TrainingApiServer api, String path) throws Exception {
    List<String> names = new ArrayList<>();
    get(api, path).path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
    return names;
  }

  private JsonNode get(TrainingApiServer api, String path) throws Exception {
    HttpResponse<String> response =
        http.send(request(api, path).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static HttpRequest.Builder request(TrainingApiServer api, String path) {
    return HttpRequest.newBuilder(URI.create(api.url() + path)).timeout(Duration.ofSeconds(10));
  }
}
