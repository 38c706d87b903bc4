package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.placement.TopologyCounts;
import dev.caldera.support.placement.LabelSelectors;
import dev.caldera.support.placement.TopologyKeeper;
import dev.caldera.testkit.NodeBuilder;
import dev.caldera.testkit.PodBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The session's incremental topology facts against a full recount: random allocations, evictions
 * and statements (committed or discarded), and after each step every node's counted pods and lists
 * and every shared count equal what a fresh keeper computes from scratch over the same nodes.
 */
class TopologyCheckTest {

  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final int NODES = 4;
  private static final String[] APPS = {"a", "b", "c"};

  @Test
  void randomPlacements_incrementalCountsEqualAFullRecount() throws Exception {
    for (long seed = 1; seed <= 5; seed++) {
      check(seed);
    }
  }

  private static void check(long seed) throws Exception {
    Random random = new Random(seed);
    SessionProbe probe = new SessionProbe().plugin("none", (s, x) -> {});
    for (int i = 0; i < NODES; i++) {
      probe.nodes.add(
          NodeBuilder.node("n" + i)
              .allocatable("cpu", "64", "memory", "64Gi", "pods", "110")
              .label(HOSTNAME, "n" + i)
              .label(ZONE, "z" + (i % 2))
              .build());
    }
    for (int i = 0; i < 24; i++) {
      String name = "p" + i;
      PodBuilder pod =
          PodBuilder.pod("ns/" + name)
              .label("app", APPS[random.nextInt(APPS.length)])
              .annotation("scheduling.k8s.io/group-name", name)
              .requests("cpu", "1");
      switch (random.nextInt(4)) {
        case 0 -> pod.requiredPodAntiAffinity(random.nextBoolean() ? HOSTNAME : ZONE, "app", "a");
        case 1 -> pod.preferredPodAffinity(1 + random.nextInt(50), ZONE, "app", "b");
        case 2 -> pod.preferredPodAntiAffinity(1 + random.nextInt(50), HOSTNAME, "app", "c");
        default -> {}
      }
      if (random.nextBoolean()) {
        pod.specNodeName("n" + random.nextInt(NODES)).podPhase("Running");
      }
      probe.podGroups.add(
          new PodGroup(
              ObjectMeta.named("ns", name), "default", 1, null, null, null, "Inqueue", null));
      probe.pods.add(pod.build());
    }
    List<Throwable> failures = new ArrayList<>();
    probe.run(
        "actions: probe\ntiers:\n- plugins: [{name: none}]\n",
        ssn -> {
          try {
            steps(ssn, random);
          } catch (Throwable t) {
            failures.add(t);
          }
        });
    if (!failures.isEmpty()) {
      throw new AssertionError("seed " + seed, failures.get(0));
    }
  }

  private static void steps(ActionSession ssn, Random random) {
    List<TaskInfo> tasks = new ArrayList<>();
    ssn.jobs().forEach(j -> tasks.addAll(j.tasks()));
    for (int step = 0; step < 60; step++) {
      TaskInfo task = tasks.get(random.nextInt(tasks.size()));
      NodeInfo node = ssn.nodes().get(random.nextInt(NODES));
      switch (random.nextInt(3)) {
        case 0 -> {
          if (task.status() == TaskStatus.PENDING) {
            ssn.allocate(task, node);
          }
        }
        case 1 -> {
          if (task.status() == TaskStatus.RUNNING) {
            ssn.evict(task, "test");
          }
        }
        default -> {
          Statement stmt = ssn.newStatement();
          for (int k = 0; k < 3; k++) {
            TaskInfo t = tasks.get(random.nextInt(tasks.size()));
            if (t.status() == TaskStatus.PENDING) {
              stmt.pipeline(t, ssn.nodes().get(random.nextInt(NODES)), false);
            } else if (t.status() == TaskStatus.RUNNING) {
              stmt.evict(t, "test");
            }
            assertAgrees(ssn, tasks);
          }
          if (random.nextBoolean()) {
            stmt.discard();
          } else {
            stmt.commit();
          }
        }
      }
      assertAgrees(ssn, tasks);
    }
  }

  private static void assertAgrees(ActionSession ssn, List<TaskInfo> tasks) {
    for (NodeInfo node : ssn.nodes()) {
      List<String> counted =
          node.tasks().stream()
              .filter(t -> t.status() != TaskStatus.RELEASING)
              .map(TaskInfo::name)
              .toList();
      assertThat(names(node.pods())).as("pods of %s", node.name()).isEqualTo(counted);
      assertThat(names(node.podsWithAffinity()))
          .containsExactlyInAnyOrderElementsOf(
              names(
                  node.pods().stream()
                      .filter(t -> PodPlacement.hasPodAffinityTerms(t.pod()))
                      .toList()));
      assertThat(names(node.podsWithRequiredAntiAffinity()))
          .containsExactlyInAnyOrderElementsOf(
              names(
                  node.pods().stream()
                      .filter(t -> PodPlacement.hasRequiredAntiAffinity(t.pod()))
                      .toList()));
    }
    SessionTopology shared = ssn.topology();
    SessionTopology fresh = new TopologyKeeper(ssn.nodes(), Map.of());
    assertThat(shared.podsWithPreferredPodTerms()).isEqualTo(fresh.podsWithPreferredPodTerms());
    for (String app : APPS) {
      Pod incoming = PodBuilder.pod("ns/incoming").label("app", app).build();
      assertSame(
          shared.existingRequiredAntiAffinity(incoming),
          fresh.existingRequiredAntiAffinity(incoming));
      assertSame(shared.existingPreferred(incoming), fresh.existingPreferred(incoming));
      Selector selector = LabelSelectors.ofLabels(Map.of("app", app));
      for (NodeInfo node : ssn.nodes()) {
        assertThat(shared.matchingPods(node, selector, "ns"))
            .isEqualTo(fresh.matchingPods(node, selector, "ns"));
      }
    }
    for (TaskInfo t : tasks) {
      PodPlacement placement = t.placement();
      for (List<AffinityTerm> terms :
          List.of(
              placement.requiredAntiAffinity(),
              placement.preferredAffinity(),
              placement.preferredAntiAffinity())) {
        assertSame(shared.matchingEach(terms), fresh.matchingEach(terms));
        assertSame(shared.matchingAll(terms), fresh.matchingAll(terms));
      }
    }
  }

  private static void assertSame(TopologyCounts actual, TopologyCounts expected) {
    assertThat(pairs(actual)).isEqualTo(pairs(expected));
  }

  private static Map<String, Long> pairs(TopologyCounts counts) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < NODES; i++) {
      out.put("n" + i, counts.get(HOSTNAME, "n" + i));
    }
    out.put("z0", counts.get(ZONE, "z0"));
    out.put("z1", counts.get(ZONE, "z1"));
    return out;
  }

  private static List<String> names(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::name).collect(Collectors.toList());
  }
}
