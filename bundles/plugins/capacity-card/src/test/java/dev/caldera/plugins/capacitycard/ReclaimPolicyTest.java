package dev.caldera.plugins.capacitycard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.dsl.PolicyCompiler;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReclaimPolicyTest {

  private static final Map<String, String> SEED_MAP = new LinkedHashMap<>();

  static {
    SEED_MAP.put("ReplicaSet", "inference");
    SEED_MAP.put("Deployment", "inference");
    SEED_MAP.put("Job", "training");
  }

  /** A policy that lets anything reclaim anything of a reclaimable queue. */
  private static final String OPEN_POLICY =
      """
      policy open
      classify service as batch | other {
        from podgroup.annotations["kind"]
        otherwise batch
      }
      reclaim {
        any may reclaim any when reclaimee.queue.reclaimable
        otherwise deny
      }
      """;

  private final FakeSession s = new FakeSession();
  private final FakeTask reclaimer;
  private final FakeTask victim;

  ReclaimPolicyTest() {
    s.addQueue("q-a").reclaimable(false);
    s.addQueue("q-b").reclaimable(true);
    reclaimer = s.addJob("ns/a").queue("q-a").task("a-0");
    victim = s.addJob("ns/b").queue("q-b").task("b-0");
  }

  @Test
  void generatedTidal_withTheSeedMap_isTheShippedPolicy() throws IOException {
    Path shipped = Path.of("../../../policies/tidal.policy");
    String generated = ReclaimPolicies.tidalSource(SEED_MAP);

    assertThat(PolicyCompiler.compile("tidal.policy", generated).diagnostics()).isEmpty();
    assertThat(PolicyCompiler.format("tidal.policy", generated))
        .isNotNull()
        .isEqualTo(PolicyCompiler.format("tidal.policy", Files.readString(shipped)));
  }

  @Test
  void generatedTidal_quotesKindsThatAreNotIdentifiers() {
    String source = ReclaimPolicies.tidalSource(Map.of("apps/v1 Deployment", "inference"));

    assertThat(source).contains("from owner.kind { \"apps/v1 Deployment\": inference }");
    assertThat(PolicyCompiler.compile("tidal.policy", source).ok()).isTrue();
  }

  @Test
  void ownerMap_theTidalPolicyIsCompiledOnceForAllPlugins() {
    ReclaimPolicies policies = new ReclaimPolicies();
    CardArguments args =
        CardArguments.parse(
            new dev.caldera.api.PluginArguments(
                "capacity-card", Map.of("podOwnerReferenceToServiceType", SEED_MAP), false));

    var first = policies.tidal(args.ownerKindServiceTypes());
    var second = policies.tidal(args.ownerKindServiceTypes());

    assertThat(first).isSameAs(second);
    assertThat(first.name()).isEqualTo("tidal");
  }

  @Test
  void ownerMapThatMakesNoValidPolicy_isAnArgumentError() {
    assertThatThrownBy(() -> new ReclaimPolicies().tidal(Map.of("Bad\rKind", "training")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("podOwnerReferenceToServiceType")
        .hasMessageContaining("tidal.policy:");
  }

  @Test
  void reclaimPolicy_namesAPolicyOfTheSession() {
    s.cluster(new ClusterInfo(null, null, null, null, null, Map.of("open.policy", OPEN_POLICY)));

    ReclaimableFn fn =
        Fixtures.open(s, Map.of("reclaimPolicy", "open")).get(ExtensionPoint.RECLAIMABLE);

    assertThat(fn.select(reclaimer, List.of(victim)).tasks()).containsExactly(victim);
    assertThat(fn.select(victim, List.of(reclaimer)).tasks()).isEmpty();
  }

  @Test
  void reclaimPolicy_missing_isAnUnmetRequirementThatHoldsScheduling() {
    CardArguments args =
        CardArguments.parse(
            new dev.caldera.api.PluginArguments(
                "capacity-card", Map.of("reclaimPolicy", "nowhere"), false));
    CapacityCardPlugin plugin =
        new CapacityCardPlugin(args, new QueueReports(), new ReclaimPolicies());

    assertThat(plugin.unmetRequirements(s.cluster()))
        .containsExactly(
            "reclaim policy nowhere is named by reclaimPolicy but no valid .policy file"
                + " declares it");
  }

  @Test
  void reclaimPolicy_badEdit_keepsTheLastGoodVersionAndReportsOnce() {
    ReclaimPolicies policies = new ReclaimPolicies();
    CardArguments args =
        CardArguments.parse(
            new dev.caldera.api.PluginArguments(
                "capacity-card", Map.of("reclaimPolicy", "open"), false));
    s.cluster(new ClusterInfo(null, null, null, null, null, Map.of("open.policy", OPEN_POLICY)));
    RecordingExtensions.open(new CapacityCardPlugin(args, new QueueReports(), policies), s);
    String broken = OPEN_POLICY.replace("any may reclaim any", "any may reclaim nobody");
    s.cluster(new ClusterInfo(null, null, null, null, null, Map.of("open.policy", broken)));

    ReclaimableFn fn =
        RecordingExtensions.open(new CapacityCardPlugin(args, new QueueReports(), policies), s)
            .get(ExtensionPoint.RECLAIMABLE);
    RecordingExtensions.open(new CapacityCardPlugin(args, new QueueReports(), policies), s);

    assertThat(fn.select(reclaimer, List.of(victim)).tasks()).containsExactly(victim);
    assertThat(s.events()).hasSize(1);
    assertThat(s.events().get(0).reason()).isEqualTo("PolicyError");
    assertThat(s.events().get(0).message()).startsWith("open.policy:");
  }
}
