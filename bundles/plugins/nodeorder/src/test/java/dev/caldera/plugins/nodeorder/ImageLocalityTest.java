package dev.caldera.plugins.nodeorder;

import static dev.caldera.testkit.NodeBuilder.node;
import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImageLocalityTest {

  private static final long MB = 1024L * 1024;

  @Test
  void priority_clampsBetweenMinimumAndPerContainerMaximum() {
    assertThat(ImageLocality.priority(0, 1)).isZero();
    assertThat(ImageLocality.priority(23 * MB, 1)).isZero();
    assertThat(ImageLocality.priority(5000 * MB, 1)).isEqualTo(100);
    // Two containers double the maximum: (1000 − 23)·100/(2000 − 23) = 49.
    assertThat(ImageLocality.priority(1000 * MB, 2)).isEqualTo(49);
    assertThat(ImageLocality.priority(0, 0)).isZero();
  }

  @Test
  void score_normalisesUntaggedNamesAndSumsInitAndRegularContainers() {
    Node n1 =
        node("n1")
            .image("registry:5000/app:latest", 400 * MB)
            .image("busybox:1.36", 200 * MB)
            .build();
    Node n2 = node("n2").image("busybox:1.36", 200 * MB).build();
    List<Node> nodes = List.of(n1, n2);
    ImageScores images = ImageScores.of(n1, ImageScores.nodeCounts(nodes), nodes.size());
    // app is on 1 of 2 nodes: 200MB; busybox on both: 200MB.
    assertThat(images.scaled("registry:5000/app")).isEqualTo(200 * MB);
    assertThat(images.scaled("registry:5000/app:latest")).isEqualTo(200 * MB);
    assertThat(images.scaled("busybox:1.36")).isEqualTo(200 * MB);
    assertThat(images.scaled("busybox")).isZero();
    long score =
        ImageLocality.score(
            pod("ns/p")
                .image("registry:5000/app")
                .initContainer(new Container("init", "busybox:1.36", null, null, null))
                .build(),
            images);
    // 400MB over two containers: (400 − 23)·100/(2000 − 23) = 19.
    assertThat(score).isEqualTo(19);
  }

  @Test
  void of_nodeWithoutImages_isNull() {
    Node n = node("n").build();
    assertThat(ImageScores.of(n, ImageScores.nodeCounts(List.of(n)), 1)).isNull();
    assertThat(ImageLocality.score(pod("ns/p").image("x").build(), null)).isZero();
  }
}
