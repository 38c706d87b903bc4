package dev.caldera.plugins.capacitycard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.dsl.PolicyCompiler;
import dev.caldera.dsl.PolicyLibrary;
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

  private static final Path SHIPPED = Path.of("../../../policies/tidal.policy");

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
  void tidal_withTheShippedMap_isTheShippedFileAsItIs() throws IOException {
    String shipped = Files.readString(SHIPPED);

    assertThat(ReclaimPolicies.tidalSource(SEED_MAP)).isEqualTo(shipped);
  }

  @Test
  void tidal_withoutAMap_dropsTheOwnerKindsAndKeepsEveryRuleOnItsShippedLine() throws IOException {
    List<String> shipped = Files.readAllLines(SHIPPED);
    List<String> source = ReclaimPolicies.tidalSource(Map.of()).lines().toList();

    assertThat(source).hasSameSizeAs(shipped).noneMatch(l -> l.contains("owner.kind"));
    for (int i = 0; i < shipped.size(); i++) {
      if (!shipped.get(i).contains("owner.kind")) {
        assertThat(source.get(i)).as("line %d", i + 1).isEqualTo(shipped.get(i));
      }
    }
    assertThat(PolicyCompiler.compile("tidal.policy", String.join("\n", source)).ok()).isTrue();
  }

  @Test
  void tidal_quotesKindsThatAreNotIdentifiers() {
    String source = ReclaimPolicies.tidalSource(Map.of("apps/v1 Deployment", "inference"));

    assertThat(source).contains("  from owner.kind { \"apps/v1 Deployment\": inference }\n");
    assertThat(PolicyCompiler.compile("tidal.policy", source).ok()).isTrue();
  }

  @Test
  void ownerMap_theTidalPolicyIsCompiledOnceForAllPlugins() {
    PolicyLibrary library = PolicyLibrary.create();
    ReclaimPolicies policies = new ReclaimPolicies(library);
    CardArguments args =
        CardArguments.parse(
            new dev.caldera.api.PluginArguments(
                "capacity-card", Map.of("podOwnerReferenceToServiceType", SEED_MAP), false));

    var first = policies.tidal(args.ownerKindServiceTypes());
    library.refresh(Map.of());
    var second = new ReclaimPolicies(library).tidal(args.ownerKindServiceTypes());

    assertThat(first).isSameAs(second);
    assertThat(first.name()).isEqualTo("tidal");
    assertThat(library.compilations()).isEqualTo(1);
  }

  @Test
  void reclaimPolicy_aTextTheSharedLibraryCompiled_isNotCompiledAgain() {
    PolicyLibrary library = PolicyLibrary.create();
    Map<String, String> sources = Map.of("open.policy", OPEN_POLICY);
    library.refresh(sources); // as the policy plugin's session does with the same sources
    s.cluster(new ClusterInfo(null, null, null, null, null, sources));

    ReclaimableFn fn =
        RecordingExtensions.open(
                new CapacityCardPluginFactory(library)
                    .create(
                        new dev.caldera.api.PluginArguments(
                            "capacity-card", Map.of("reclaimPolicy", "open"), false)),
                s)
            .get(ExtensionPoint.RECLAIMABLE);

    assertThat(fn.select(reclaimer, List.of(victim)).tasks()).containsExactly(victim);
    assertThat(library.compilations()).isEqualTo(1);
  }

  @Test
  void ownerMapThatMakesNoValidPolicy_isAnArgumentError() {
    assertThatThrownBy(
            () ->
                new ReclaimPolicies(PolicyLibrary.create()).tidal(Map.of("Bad\rKind", "training")))
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
        new CapacityCardPlugin(
            args, new QueueReports(), new ReclaimPolicies(PolicyLibrary.create()));

    assertThat(plugin.unmetRequirements(s.cluster()))
        .containsExactly(
            "reclaim policy nowhere is named by reclaimPolicy but no valid .policy file"
                + " declares it");
  }

  @Test
  void reclaimPolicy_badEdit_keepsTheLastGoodVersionAndReportsOnce() {
    ReclaimPolicies policies = new ReclaimPolicies(PolicyLibrary.create());
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
