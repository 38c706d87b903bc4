package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.support.resource.Resource;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.Resources;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NodeFitTest {

  private static FakeNode node(String... allocatable) {
    return new FakeNode("n1").allocatable(allocatable);
  }

  private static void place(FakeNode node, TaskStatus status, String... requests) {
    new FakeTask("ns/t" + node.taskCount()).requests(requests).status(status).on(node);
  }

  @Test
  void firstShort_reportsCpuThenMemoryThenScalarsByName() {
    FakeNode n = node("cpu", "1", "memory", "1Gi", "pods", "10", "b.io/x", "1", "a.io/y", "1");
    Resource req =
        Resources.resource("cpu", "2", "memory", "2Gi", "b.io/x", "2", "a.io/y", "2", "pods", "1");

    assertThat(NodeFit.firstShort(req, n, null)).isEqualTo(ResourceNames.CPU_INDEX);
    req.set(ResourceNames.CPU_INDEX, 500);
    assertThat(NodeFit.firstShort(req, n, null)).isEqualTo(ResourceNames.MEMORY_INDEX);
    req.set(ResourceNames.MEMORY_INDEX, 1);
    assertThat(ResourceNames.nameOf(NodeFit.firstShort(req, n, null))).isEqualTo("a.io/y");
    assertThat(NodeFit.insufficient(NodeFit.firstShort(req, n, null)).message())
        .isEqualTo("Insufficient a.io/y");
  }

  @Test
  void fitsFutureIdle_countsReleasingAndPipelined() {
    FakeNode n = node("cpu", "4", "memory", "4Gi", "pods", "10");
    place(n, TaskStatus.RUNNING, "cpu", "2");
    place(n, TaskStatus.RELEASING, "cpu", "2");
    Resource two = Resources.resource("cpu", "2", "pods", "1");

    assertThat(NodeFit.fitsIdle(two, n)).isFalse();
    assertThat(NodeFit.fitsFutureIdle(two, n)).isTrue();

    place(n, TaskStatus.PIPELINED, "cpu", "1");
    assertThat(NodeFit.fitsFutureIdle(two, n)).isFalse();
    assertThat(NodeFit.fitsFutureIdle(two, n, Resources.resource("cpu", "1"))).isTrue();
  }

  @Test
  void classify_tellsIdleFromFutureIdleFromShort() {
    FakeNode n = node("cpu", "4", "memory", "4Gi", "pods", "10", "x.io/gpu", "2");
    place(n, TaskStatus.RUNNING, "cpu", "1", "x.io/gpu", "1");
    place(n, TaskStatus.RELEASING, "cpu", "2");
    Resource small = Resources.resource("cpu", "1", "x.io/gpu", "1", "pods", "1");
    Resource mid = Resources.resource("cpu", "2", "pods", "1");
    Resource gpus = Resources.resource("cpu", "1", "x.io/gpu", "2", "pods", "1");

    assertThat(NodeFit.classify(small, NodeFit.reportOrder(small), n)).isEqualTo(NodeFit.FITS_IDLE);
    assertThat(NodeFit.classify(mid, NodeFit.reportOrder(mid), n)).isEqualTo(NodeFit.FITS);
    assertThat(ResourceNames.nameOf(NodeFit.classify(gpus, NodeFit.reportOrder(gpus), n)))
        .isEqualTo("x.io/gpu");
  }

  @Test
  void fitsFutureIdle_missingScalarOnNodeIsZeroAndPodsCount() {
    FakeNode noPods = node("cpu", "4", "memory", "4Gi");
    Resource req = Resources.resource("cpu", "1", "pods", "1");
    assertThat(NodeFit.fitsFutureIdle(req, noPods)).isFalse();
    assertThat(ResourceNames.nameOf(NodeFit.firstShort(req, noPods, null))).isEqualTo("pods");
  }

  @Test
  void fitsFutureIdle_toleratesEpsilon() {
    FakeNode n = node("cpu", "1", "memory", "1Gi", "pods", "1");
    Resource req = Resources.resource("cpu", "1", "pods", "1");
    req.set(ResourceNames.CPU_INDEX, 1000.05);
    assertThat(NodeFit.fitsFutureIdle(req, n)).isTrue();
    req.set(ResourceNames.CPU_INDEX, 1000.2);
    assertThat(NodeFit.fitsFutureIdle(req, n)).isFalse();
  }

  @Test
  void fitsFutureIdle_agreesWithLessEqualOnFutureIdle() {
    Random random = new Random(42);
    List<String> names = List.of("cpu", "memory", "pods", "nvidia.com/gpu");
    for (int round = 0; round < 300; round++) {
      FakeNode n = node(randomList(random, names));
      for (int t = 0; t < 3; t++) {
        TaskStatus status =
            List.of(TaskStatus.RUNNING, TaskStatus.RELEASING, TaskStatus.PIPELINED)
                .get(random.nextInt(3));
        place(n, status, randomList(random, names));
      }
      Resource req = Resources.resource(randomList(random, names));
      Resource extra = random.nextBoolean() ? Resources.resource(randomList(random, names)) : null;

      Resource future = n.futureIdle();
      if (extra != null) {
        future.add(extra);
      }
      List<String> expected = req.lessEqualWithResourcesName(future, Dimension.ZERO);
      int shortOf = NodeFit.firstShort(req, n, extra);
      if (expected.isEmpty()) {
        assertThat(shortOf).as("round %d", round).isEqualTo(NodeFit.FITS);
      } else {
        assertThat(ResourceNames.nameOf(shortOf)).as("round %d", round).isEqualTo(expected.get(0));
      }
      if (extra == null) {
        int classified = NodeFit.classify(req, NodeFit.reportOrder(req), n);
        int expectedClass =
            !expected.isEmpty()
                ? shortOf
                : req.lessEqual(n.idle(), Dimension.ZERO) ? NodeFit.FITS_IDLE : NodeFit.FITS;
        assertThat(classified).as("round %d", round).isEqualTo(expectedClass);
      }
    }
  }

  private static String[] randomList(Random random, List<String> names) {
    String[] pairs = new String[names.size() * 2];
    int n = 0;
    for (String name : names) {
      if (random.nextInt(4) == 0) {
        continue;
      }
      pairs[n++] = name;
      pairs[n++] = Integer.toString(random.nextInt(4));
    }
    return java.util.Arrays.copyOf(pairs, n);
  }
}
