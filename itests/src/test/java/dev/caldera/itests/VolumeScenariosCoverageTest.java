package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.framework.conf.Tier;
import dev.caldera.sim.Expectations;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The volume scenarios of the corpus ({@code src/test/scenarios/volumes/}) cover every volume rule:
 * each failure reason the predicates plugin's {@code VolumeRules} declares is expected in some
 * scenario's events, a static volume choice and a provisioning are both expected, and every
 * scenario has a pod whose preferred node (scored by nodeorder) the volume rules forbid.
 */
class VolumeScenariosCoverageTest {

  static final Path VOLUMES = ProjectScenariosTest.CORPUS.resolve("volumes");
  static final Path RULES =
      Path.of(
          "../bundles/plugins/predicates/src/main/java/dev/caldera/plugins/predicates/"
              + "VolumeRules.java");
  private static final Pattern REASON =
      Pattern.compile("static final String [A-Z_]+ =\\s*\"([^\"]+)\";");

  private static List<Scenario> scenarios;

  @BeforeAll
  static void load() throws Exception {
    scenarios = new ArrayList<>();
    for (Path file : ScenarioLoader.expand(List.of(VOLUMES))) {
      scenarios.add(ScenarioLoader.load(file));
    }
    assertThat(scenarios).isNotEmpty();
  }

  @Test
  void everyVolumeReason_isExpectedInSomeScenario() throws Exception {
    Set<String> reasons = new TreeSet<>();
    Matcher m = REASON.matcher(Files.readString(RULES));
    while (m.find()) {
      reasons.add(m.group(1));
    }
    assertThat(reasons).as("reasons declared in %s", RULES).hasSizeGreaterThanOrEqualTo(7);
    Set<String> expected = new TreeSet<>();
    for (Scenario s : scenarios) {
      if (s.expect() != null && s.expect().events() != null) {
        s.expect().events().forEach(e -> expected.add(e.message()));
      }
    }
    for (String reason : reasons) {
      assertThat(expected).as("expected event messages").anyMatch(msg -> msg.contains(reason));
    }
  }

  @Test
  void staticVolumeAndProvisioning_areBothExpected() {
    List<String> volumes = new ArrayList<>();
    for (Scenario s : scenarios) {
      if (s.expect() != null && s.expect().volumes() != null) {
        volumes.addAll(s.expect().volumes().values());
      }
    }
    assertThat(volumes).contains(Expectations.PROVISION);
    assertThat(volumes).anyMatch(v -> !v.equals(Expectations.PROVISION));
  }

  @Test
  void everyScenario_hasAPreferredNodeTheVolumeRulesForbid() {
    for (Scenario s : scenarios) {
      boolean nodeorder = false;
      for (Tier tier : s.conf().tiers()) {
        nodeorder |= tier.plugins().stream().anyMatch(p -> p.name().equals("nodeorder"));
      }
      assertThat(nodeorder).as("%s scores nodes with nodeorder", s.name()).isTrue();
      boolean forbidden = false;
      for (Pod pod : s.objects().pods()) {
        if (pod.nodeName().isEmpty() && pod.nodeAffinity() != null) {
          String bound = s.expect().bind() == null ? null : s.expect().bind().get(pod.key());
          for (PreferredSchedulingTerm t : pod.nodeAffinity().preferred()) {
            for (NodeSelectorRequirement r : t.preference().matchExpressions()) {
              forbidden |=
                  !pod.volumes().isEmpty() && (bound == null || !r.values().contains(bound));
            }
          }
        }
      }
      assertThat(forbidden)
          .as("%s: a pod with volumes is expected elsewhere than its preferred node", s.name())
          .isTrue();
    }
  }
}
