package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.load.LoadObjects.PodShape;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a run creates on the API server, and that its cleanup deletes that and nothing else. */
class LoadClusterTest {

  private static final PodShape SHAPE = new PodShape(new Quantity("100m"), new Quantity("64Mi"));

  private static void someoneElsesObjects(MockCluster mock) {
    mock.kubectl
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName("real-node").endMetadata().build())
        .create();
    mock.kubectl
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("prod").endMetadata().build())
        .create();
    mock.kubectl
        .pods()
        .inNamespace("prod")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("web")
                .withNamespace("prod")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("nginx")
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  @Test
  void cleanup_deletesEverythingTheRunCreated_andLeavesAQueueThatWasThere() throws Exception {
    try (MockCluster mock = new MockCluster()) {
      mock.installVolcanoCrds();
      someoneElsesObjects(mock);
      mock.kubectl
          .genericKubernetesResources(LoadObjects.QUEUES)
          .resource(LoadObjects.queue("default"))
          .create();
      LoadCluster cluster = new LoadCluster(mock.kubectl, "abc123");

      cluster.checkVolcanoCrds();
      cluster.createNamespace();
      cluster.createNodes(3, 2);
      cluster.ensureQueue("default");
      cluster.createPodGroup("gang-0", "default", 2, SHAPE);
      cluster.createPod("gang-0-0", "gang-0", "volcano", Map.of("caldera-load", "abc123"), SHAPE);
      cluster.createPod("gang-0-1", "gang-0", "volcano", Map.of("caldera-load", "abc123"), SHAPE);

      assertThat(cluster.namespace()).isEqualTo("caldera-load-abc123");
      assertThat(cluster.createdNodes())
          .containsExactlyInAnyOrder(
              "caldera-load-abc123-0", "caldera-load-abc123-1", "caldera-load-abc123-2");
      assertThat(cluster.createdQueue()).as("the queue was there").isNull();
      assertThat(mock.kubectl.pods().inNamespace(cluster.namespace()).list().getItems()).hasSize(2);

      assertThat(cluster.cleanup()).isEmpty();

      assertThat(mock.kubectl.namespaces().list().getItems())
          .extracting(n -> n.getMetadata().getName())
          .containsExactly("prod");
      assertThat(mock.kubectl.nodes().list().getItems())
          .extracting(n -> n.getMetadata().getName())
          .containsExactly("real-node");
      assertThat(mock.kubectl.pods().inAnyNamespace().list().getItems())
          .extracting(p -> p.getMetadata().getName())
          .containsExactly("web");
      assertThat(
              mock.kubectl
                  .genericKubernetesResources(LoadObjects.POD_GROUPS)
                  .inAnyNamespace()
                  .list()
                  .getItems())
          .isEmpty();
      assertThat(mock.kubectl.genericKubernetesResources(LoadObjects.QUEUES).list().getItems())
          .extracting(q -> q.getMetadata().getName())
          .as("the queue that was there before the run")
          .containsExactly("default");
      assertThat(cluster.cleanup()).as("a second cleanup").isEmpty();
    }
  }

  @ParameterizedTest(name = "the collection deletes answered {0}")
  @ValueSource(ints = {200, 403})
  void whatTheCollectionDeletesLeft_isDeletedOneByOne(int collectionDeleteAnswer) throws Exception {
    try (MockCluster mock = new MockCluster()) {
      mock.installVolcanoCrds();
      LoadCluster cluster = new LoadCluster(mock.kubectl, "left01");
      cluster.createNamespace();
      cluster.createNodes(1, 1);
      cluster.ensureQueue("default");
      for (int i = 0; i < 40; i++) {
        cluster.createPodGroup("g-" + i, "default", 1, SHAPE);
        cluster.createPod("p-" + i, "g-" + i, "volcano", Map.of("caldera-load", "left01"), SHAPE);
      }
      mock.collectionDeleteAnswer = collectionDeleteAnswer;

      assertThat(cluster.cleanup()).isEmpty();

      assertThat(mock.kubectl.pods().inNamespace(cluster.namespace()).list().getItems()).isEmpty();
      assertThat(
              mock.kubectl
                  .genericKubernetesResources(LoadObjects.POD_GROUPS)
                  .inNamespace(cluster.namespace())
                  .list()
                  .getItems())
          .isEmpty();
    }
  }

  @Test
  void aQueueTheRunCreated_isDeleted() throws Exception {
    try (MockCluster mock = new MockCluster()) {
      mock.installVolcanoCrds();
      mock.kubectl
          .genericKubernetesResources(LoadObjects.QUEUES)
          .resource(LoadObjects.queue("other"))
          .create();
      LoadCluster cluster = new LoadCluster(mock.kubectl, "q00001");

      cluster.ensureQueue("load");

      assertThat(cluster.createdQueue()).isEqualTo("load");
      assertThat(cluster.cleanup()).isEmpty();
      assertThat(mock.kubectl.genericKubernetesResources(LoadObjects.QUEUES).list().getItems())
          .extracting(q -> q.getMetadata().getName())
          .containsExactly("other");
    }
  }

  @Test
  void whatCouldNotBeDeleted_isSaid() throws Exception {
    MockCluster mock = new MockCluster();
    LoadCluster cluster;
    try {
      cluster = new LoadCluster(mock.kubectl, "gone01");
      cluster.createNamespace();
      cluster.createNodes(1, 1);
    } finally {
      mock.close();
    }

    // The API server has gone away: every delete fails, each is said.
    assertThat(cluster.cleanup())
        .hasSizeGreaterThanOrEqualTo(5)
        .allSatisfy(line -> assertThat(line).startsWith("could not delete "))
        .anySatisfy(
            line -> assertThat(line).startsWith("could not delete namespace caldera-load-gone01: "))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("could not delete the nodes labelled caldera-load=gone01: "));
  }

  @Test
  void noCrds_isAnErrorThatSaysHowToInstallThem() {
    try (MockCluster mock = new MockCluster()) {
      LoadCluster cluster = new LoadCluster(mock.kubectl, "nocrd1");

      assertThatThrownBy(cluster::checkVolcanoCrds)
          .isInstanceOf(LoadException.class)
          .hasMessageContaining("queues and podgroups of scheduling.volcano.sh/v1beta1")
          .hasMessageContaining("kubectl apply -k runtime/deploy/crds");
    }
  }

  @Test
  void theObjects_areWhatVolcanoAndAKubeletlessServerExpect() {
    Pod pod =
        LoadObjects.pod(
            "ns", "gang-0-0", "run1", "gang-0", "volcano", Map.of("caldera-load", "run1"), SHAPE);
    assertThat(pod.getMetadata().getAnnotations())
        .containsEntry("scheduling.k8s.io/group-name", "gang-0");
    assertThat(pod.getMetadata().getLabels()).containsEntry("caldera-load", "run1");
    assertThat(pod.getSpec().getSchedulerName()).isEqualTo("volcano");
    assertThat(pod.getSpec().getNodeSelector()).isEqualTo(Map.of("caldera-load", "run1"));
    assertThat(pod.getSpec().getTolerations())
        .extracting(t -> t.getKey() + " " + t.getOperator() + " " + t.getEffect())
        .containsExactly(
            "node.kubernetes.io/not-ready Exists null",
            "node.kubernetes.io/unreachable Exists null");
    assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", new Quantity("100m"))
        .containsEntry("memory", new Quantity("64Mi"));
    assertThat(
            LoadObjects.pod("ns", "pod-0", "run1", null, "default-scheduler", Map.of(), SHAPE)
                .getMetadata()
                .getAnnotations())
        .isEmpty();

    GenericKubernetesResource group =
        LoadObjects.podGroup("ns", "gang-0", "run1", "default", 10, SHAPE);
    assertThat(group.getAdditionalProperties().get("spec"))
        .isEqualTo(
            Map.of(
                "minMember",
                10,
                "queue",
                "default",
                "minResources",
                Map.of("cpu", "1000m", "memory", "640Mi")));

    var node = LoadObjects.node("n1", "run1");
    assertThat(node.getStatus().getAllocatable())
        .containsEntry("cpu", new Quantity("32"))
        .containsEntry("memory", new Quantity("128Gi"))
        .containsEntry("pods", new Quantity("110"));
    assertThat(node.getStatus().getConditions())
        .singleElement()
        .satisfies(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Ready=True"));
  }
}
