package dev.caldera.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.model.Pod;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioExportTest {

  private static final String CONF =
      "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n";

  @TempDir Path tmp;

  @Test
  void write_givesAScenarioThatLoadsTheSameObjects_withTheConfAndPoliciesInForce()
      throws Exception {
    Path file = Path.of(getClass().getResource("/good/full-objects.yaml").toURI());
    Scenario original = ScenarioLoader.load(file);
    ClusterSnapshot snapshot = original.cluster().snapshot();

    for (boolean json : new boolean[] {false, true}) {
      String text =
          ScenarioExport.write(
              snapshot,
              new ClusterExport.Request(
                  "snapshot-1", CONF, Map.of("t.policy", "policy t\n"), false, false, json));
      Path out = tmp.resolve(json ? "s.json" : "s.yaml");
      Files.writeString(out, text);
      Scenario again = ScenarioLoader.load(out);

      assertThat(again.name()).isEqualTo("snapshot-1");
      assertThat(again.policies()).containsEntry("t.policy", "policy t\n");
      assertThat(again.objects().nodes()).isEqualTo(snapshot.nodes());
      assertThat(again.objects().queues())
          .extracting(q -> q.name() + " " + q.weight() + " " + q.capability() + " " + q.guarantee())
          .containsExactlyInAnyOrderElementsOf(
              snapshot.queues().stream()
                  .map(
                      q -> q.name() + " " + q.weight() + " " + q.capability() + " " + q.guarantee())
                  .toList());
      assertThat(again.objects().podGroups())
          .containsExactlyInAnyOrderElementsOf(snapshot.podGroups());
      assertThat(again.objects().pods())
          .extracting(ScenarioExportTest::summary)
          .containsExactlyInAnyOrderElementsOf(
              snapshot.pods().stream().map(ScenarioExportTest::summary).toList());
    }
  }

  @Test
  void write_refusesToAnonymize() {
    assertThatThrownBy(
            () ->
                ScenarioExport.write(
                    new ClusterSnapshot(
                        java.util.List.of(),
                        java.util.List.of(),
                        java.util.List.of(),
                        java.util.List.of(),
                        null,
                        java.time.Instant.EPOCH),
                    new ClusterExport.Request("s", CONF, Map.of(), false, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("anonymize: ");
  }

  private static String summary(Pod p) {
    return p.key()
        + " "
        + p.nodeName()
        + " "
        + p.phase()
        + " "
        + p.priorityClassName()
        + " "
        + new java.util.TreeMap<>(p.metadata().annotations())
        + " "
        + p.containers().stream().map(c -> c.requests().toString()).toList()
        + " "
        + p.conditions();
  }
}
