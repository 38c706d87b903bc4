package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.placement.TopologyCounts;
import dev.caldera.support.placement.LabelSelectors;
import dev.caldera.testkit.NodeBuilder;
import dev.caldera.testkit.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The framework keeps, on each node, the pods counted for inter-pod affinity and spread (tasks less
 * those evicted in the session) with those that have (anti-)affinity terms, and keeps the session's
 * shared topology counts in step through allocate, pipeline, evict, their undo and a statement's
 * discard.
 */
class NodeTopologyTest {

  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String CONF = "actions: probe\ntiers:\n- plugins: [{name: none}]\n";

  /** An incoming pod that existing pods' {@code app=web} anti-affinity matches. */
  private static final Pod WEB = PodBuilder.pod("ns/incoming").label("app", "web").build();

  private final SessionProbe probe = new SessionProbe().plugin("none", (s, x) -> {});

  private NodeTopologyTest node(String name) {
    probe.nodes.add(
        NodeBuilder.node(name)
            .allocatable("cpu", "8", "memory", "8Gi", "pods", "110")
            .label(HOSTNAME, name)
            .build());
    return this;
  }

  /** Adds a one-task job whose pod is {@code pod} (running when it names a node). */
  private NodeTopologyTest job(String name, PodBuilder pod, String nodeName) {
    probe.podGroups.add(
        new PodGroup(
            ObjectMeta.named("ns", name), "default", 1, null, null, null, "Inqueue", null));
    pod.annotation("scheduling.k8s.io/group-name", name).requests("cpu", "1");
    if (nodeName != null) {
      pod.specNodeName(nodeName).podPhase("Running");
    }
    probe.pods.add(pod.build());
    return this;
  }

  private static PodBuilder loner(String name) {
    return PodBuilder.pod("ns/" + name).requiredPodAntiAffinity(HOSTNAME, "app", "web");
  }

  private void run(Consumer<ActionSession> test) throws Exception {
    List<Throwable> failures = new ArrayList<>();
    probe.run(
        CONF,
        ssn -> {
          try {
            test.accept(ssn);
          } catch (Throwable t) {
            failures.add(t);
          }
        });
    if (!failures.isEmpty()) {
      throw new AssertionError(failures.get(0));
    }
  }

  private static TaskInfo task(ActionSession ssn, String name) {
    for (var job : ssn.jobs()) {
      for (TaskInfo t : job.tasks()) {
        if (t.name().equals(name)) {
          return t;
        }
      }
    }
    throw new AssertionError("no task " + name);
  }

  private static List<String> names(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::name).toList();
  }

  private static long existingAnti(ActionSession ssn, String node) {
    return ssn.topology().existingRequiredAntiAffinity(WEB).get(HOSTNAME, node);
  }

  @Test
  void snapshot_nodesListTheirPodsWithAffinityAndWithRequiredAntiAffinity() throws Exception {
    node("n1").node("n2");
    job("a", loner("anti"), "n1");
    job("b", PodBuilder.pod("ns/pref").preferredPodAffinity(10, HOSTNAME, "app", "db"), "n2");
    job("c", PodBuilder.pod("ns/plain").label("app", "web"), "n1");
    run(
        ssn -> {
          NodeInfo n1 = ssn.node("n1");
          NodeInfo n2 = ssn.node("n2");
          assertThat(names(n1.pods())).containsExactlyInAnyOrder("anti", "plain");
          assertThat(names(n1.podsWithAffinity())).containsExactly("anti");
          assertThat(names(n1.podsWithRequiredAntiAffinity())).containsExactly("anti");
          assertThat(names(n2.podsWithAffinity())).containsExactly("pref");
          assertThat(n2.podsWithRequiredAntiAffinity()).isEmpty();
          assertThat(ssn.topology().podsWithPreferredPodTerms()).isEqualTo(1);
        });
  }

  @Test
  void evict_stopsCountingAtOnce_undoByDiscardCountsAgain() throws Exception {
    node("n1");
    job("a", loner("anti"), "n1");
    run(
        ssn -> {
          NodeInfo n1 = ssn.node("n1");
          TaskInfo anti = task(ssn, "anti");
          TopologyCounts before = ssn.topology().existingRequiredAntiAffinity(WEB);
          assertThat(before.get(HOSTNAME, "n1")).isEqualTo(1);

          Statement stmt = ssn.newStatement();
          stmt.evict(anti, "test");
          assertThat(names(n1.tasks())).containsExactly("anti");
          assertThat(n1.pods()).isEmpty();
          assertThat(n1.podsWithAffinity()).isEmpty();
          assertThat(n1.podsWithRequiredAntiAffinity()).isEmpty();
          assertThat(existingAnti(ssn, "n1")).isZero();
          // A count handed out earlier is a snapshot: later changes do not alter it.
          assertThat(before.get(HOSTNAME, "n1")).isEqualTo(1);

          stmt.discard();
          assertThat(names(n1.pods())).containsExactly("anti");
          assertThat(names(n1.podsWithRequiredAntiAffinity())).containsExactly("anti");
          assertThat(existingAnti(ssn, "n1")).isEqualTo(1);
        });
  }

  @Test
  void allocateAndPipeline_countAtOnce_discardUncounts() throws Exception {
    node("n1").node("n2");
    job("a", loner("anti-0"), null);
    job("b", loner("anti-1"), null);
    job("c", PodBuilder.pod("ns/web").label("app", "web"), "n2");
    run(
        ssn -> {
          SessionTopology topology = ssn.topology();
          List<dev.caldera.api.placement.AffinityTerm> terms =
              task(ssn, "anti-0").placement().requiredAntiAffinity();
          assertThat(existingAnti(ssn, "n1")).isZero();
          assertThat(topology.matchingEach(terms).get(HOSTNAME, "n2")).isEqualTo(1);
          Selector web = LabelSelectors.ofLabels(Map.of("app", "web"));
          assertThat(topology.matchingPods(ssn.node("n2"), web, "ns")).isEqualTo(1);

          assertThat(ssn.allocate(task(ssn, "anti-0"), ssn.node("n1")).isSuccess()).isTrue();
          assertThat(names(ssn.node("n1").podsWithRequiredAntiAffinity()))
              .containsExactly("anti-0");
          assertThat(existingAnti(ssn, "n1")).isEqualTo(1);

          Statement stmt = ssn.newStatement();
          assertThat(stmt.pipeline(task(ssn, "anti-1"), ssn.node("n1"), false).isSuccess())
              .isTrue();
          assertThat(existingAnti(ssn, "n1")).isEqualTo(2);
          assertThat(names(ssn.node("n1").pods())).containsExactly("anti-0", "anti-1");

          stmt.evict(task(ssn, "web"), "test");
          assertThat(topology.matchingEach(terms).get(HOSTNAME, "n2")).isZero();
          assertThat(topology.matchingPods(ssn.node("n2"), web, "ns")).isZero();

          stmt.discard();
          assertThat(existingAnti(ssn, "n1")).isEqualTo(1);
          assertThat(names(ssn.node("n1").podsWithRequiredAntiAffinity()))
              .containsExactly("anti-0");
          assertThat(topology.matchingEach(terms).get(HOSTNAME, "n2")).isEqualTo(1);
          assertThat(topology.matchingPods(ssn.node("n2"), web, "ns")).isEqualTo(1);
        });
  }

  @Test
  void sharedCounts_areReadOnly_aCopyIsWritable() throws Exception {
    node("n1");
    job("a", loner("anti"), "n1");
    run(
        ssn -> {
          TopologyCounts shared = ssn.topology().existingRequiredAntiAffinity(WEB);
          assertThat(ssn.topology().existingRequiredAntiAffinity(WEB)).isSameAs(shared);
          assertThatThrownBy(() -> shared.add(HOSTNAME, "n1", 1))
              .isInstanceOf(IllegalStateException.class);
          TopologyCounts copy = shared.copy();
          copy.add(HOSTNAME, "n1", -1);
          assertThat(copy.isEmpty()).isTrue();
          assertThat(shared.get(HOSTNAME, "n1")).isEqualTo(1);
        });
  }
}
