package dev.caldera.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.support.placement.LabelSelectors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fake session's nodes list their counted pods and those with (anti-)affinity terms, and its
 * {@link FakeSession#topology()} is the API's keeper, kept in step by placements and evictions.
 */
class FakeTopologyTest {

  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final Pod WEB = PodBuilder.pod("ns/incoming").label("app", "web").build();

  private final FakeSession session = new FakeSession();
  private final FakeNode n1 = session.addNode("n1").label(HOSTNAME, "n1");

  private static FakeTask loner(String name) {
    return new FakeTask("ns/" + name)
        .requiredPodAntiAffinity(HOSTNAME, "app", "web")
        .status(TaskStatus.RUNNING);
  }

  private static List<String> names(List<TaskInfo> tasks) {
    return tasks.stream().map(TaskInfo::name).toList();
  }

  @Test
  void nodeLists_followPlacementAndEviction() {
    FakeTask anti = loner("anti").on(n1);
    new FakeTask("ns/pref").preferredPodAffinity(5, HOSTNAME, "app", "db").on(n1);
    new FakeTask("ns/plain").on(n1);

    assertThat(names(n1.pods())).containsExactly("anti", "pref", "plain");
    assertThat(names(n1.podsWithAffinity())).containsExactly("anti", "pref");
    assertThat(names(n1.podsWithRequiredAntiAffinity())).containsExactly("anti");

    session.evict(anti);
    assertThat(names(n1.tasks())).containsExactly("anti", "pref", "plain");
    assertThat(names(n1.podsWithRequiredAntiAffinity())).isEmpty();
    session.undoEvict(anti);
    assertThat(names(n1.podsWithRequiredAntiAffinity())).containsExactly("anti");
  }

  @Test
  void topology_followsPlacementsAfterItsFirstCount() {
    SessionTopology topology = session.topology();
    assertThat(topology.existingRequiredAntiAffinity(WEB).get(HOSTNAME, "n1")).isZero();

    FakeTask anti = loner("anti").on(n1);
    assertThat(topology.existingRequiredAntiAffinity(WEB).get(HOSTNAME, "n1")).isEqualTo(1);

    List<AffinityTerm> terms = anti.placement().requiredAntiAffinity();
    FakeTask web = new FakeTask("ns/web").label("app", "web").status(TaskStatus.RUNNING).on(n1);
    assertThat(topology.matchingEach(terms).get(HOSTNAME, "n1")).isEqualTo(1);
    Selector selector = LabelSelectors.ofLabels(Map.of("app", "web"));
    assertThat(topology.matchingPods(n1, selector, "ns")).isEqualTo(1);

    session.evict(anti).evict(web);
    assertThat(topology.existingRequiredAntiAffinity(WEB).isEmpty()).isTrue();
    assertThat(topology.matchingEach(terms).isEmpty()).isTrue();
    assertThat(topology.matchingPods(n1, selector, "ns")).isZero();

    session.undoEvict(web);
    web.on(null);
    assertThat(topology.matchingEach(terms).isEmpty()).isTrue();
    assertThat(topology.matchingPods(n1, selector, "ns")).isZero();
  }
}
