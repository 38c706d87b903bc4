package dev.caldera.plugins.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PolicyPluginTest {

  static String tidal;

  /** Tidal with one more rule: inference may also reclaim unknown workloads. */
  static String tidalReclaimingUnknown;

  /** Tidal with a typo in a class name. */
  static String brokenTidal;

  final PolicyPluginFactory factory = new PolicyPluginFactory();

  @BeforeAll
  static void read() throws IOException {
    tidal = Files.readString(Path.of("../../../policies/tidal.policy"));
    tidalReclaimingUnknown =
        tidal.replace(
            "  any may reclaim training\n",
            "  any may reclaim training\n  inference may reclaim unknown\n");
    brokenTidal = tidal.replace("training may not reclaim any", "trainig may not reclaim any");
  }

  // ------------------------------------------------------------------ arguments

  static PluginArguments args(Object policies) {
    return new PluginArguments(
        "policy", policies == null ? Map.of() : Map.of("policies", policies), false);
  }

  @Test
  void arguments_acceptAListOrCommaSeparatedNames() {
    assertThat(PolicyArguments.parse(args(List.of("tidal", "custom"))).policies())
        .containsExactly("tidal", "custom");
    assertThat(PolicyArguments.parse(args("tidal, custom")).policies())
        .containsExactly("tidal", "custom");
  }

  @Test
  void arguments_rejectMissingEmptyOrWrongTypes() {
    assertThatThrownBy(() -> factory.create(args(null)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessage(
            "plugin policy: argument policies is missing, expected a list of policy names, e.g."
                + " [tidal], where an entry may be {name: NAME, audit: true}");
    assertThatThrownBy(() -> factory.create(args(List.of())))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessage(
            "plugin policy: argument policies is [], expected a list of policy names, e.g. [tidal],"
                + " where an entry may be {name: NAME, audit: true}");
    assertThatThrownBy(() -> factory.create(args(3)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("argument policies is 3");
    assertThatThrownBy(() -> factory.create(args(List.of("tidal", 4))))
        .isInstanceOf(PluginArgumentException.class)
        .extracting(e -> ((PluginArgumentException) e).key())
        .isEqualTo("policies");
    assertThatThrownBy(() -> factory.create(args("tidal,,x")))
        .isInstanceOf(PluginArgumentException.class);
  }

  @Test
  void arguments_anEntryWithAuditTrue_isAudited_notEnforced() {
    PolicyArguments a =
        PolicyArguments.parse(
            args(List.of("tidal", Map.of("name", "wide", "audit", true), Map.of("name", "x"))));

    assertThat(a.policies()).containsExactly("tidal", "x");
    assertThat(a.audits()).containsExactly("wide");
    assertThatThrownBy(
            () -> PolicyArguments.parse(args(List.of("tidal", Map.of("name", "w", "audi", true)))))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("{name: NAME, audit: true}");
  }

  // ------------------------------------------------------------------ audit mode

  @Test
  void audit_recordsWhereItWouldDecideOtherwise_countsIt_andDecidesNothing() {
    String wide = tidalReclaimingUnknown.replace("policy tidal", "policy wide");
    FakeSession s = session(Map.of("tidal.policy", tidal, "wide.policy", wide));
    Plugin plugin = factory.create(args(List.of("tidal", Map.of("name", "wide", "audit", true))));

    RecordingExtensions ext = RecordingExtensions.open(plugin, s);
    // Counted from the session it is audited in, before any disagreement.
    assertThat(factory.metrics().get(0).samples())
        .singleElement()
        .satisfies(sample -> assertThat(sample.value()).isEqualTo(0.0));

    assertThat(victims(ext)).as("tidal's decision, not wide's").containsExactly(training);
    plugin.onSessionClose(s);
    assertThat(s.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.key()).isEqualTo(unknown.key());
              assertThat(e.reason()).isEqualTo("PolicyAudit");
              assertThat(e.message())
                  .startsWith(
                      "audit policy wide would allow reclaiming "
                          + unknown.key()
                          + " for "
                          + service.key()
                          + ": by wide.policy:")
                  .contains("; enforced: denied, by tidal.policy:");
            });
    assertThat(factory.metrics().get(0).samples())
        .singleElement()
        .satisfies(
            sample -> {
              assertThat(sample.labels()).containsExactly("policy", "wide");
              assertThat(sample.value()).isEqualTo(1.0);
            });
  }

  @Test
  void audit_ofAMissingPolicy_warnsAndSchedulingGoesOn() {
    FakeSession s = session(Map.of("tidal.policy", tidal));
    Plugin plugin =
        factory.create(args(List.of("tidal", Map.of("name", "nowhere", "audit", true))));

    assertThat(plugin.unmetRequirements(s.cluster())).isEmpty();
    RecordingExtensions ext = RecordingExtensions.open(plugin, s);

    assertThat(victims(ext)).containsExactly(training);
    assertThat(s.events())
        .singleElement()
        .satisfies(e -> assertThat(e.reason()).isEqualTo("PolicyAuditMissing"));
  }

  // ------------------------------------------------------------------ sessions

  FakeTask service;
  FakeTask training;
  FakeTask unknown;

  FakeSession session(Map<String, String> policies) {
    FakeSession s = new FakeSession();
    s.cluster(new ClusterInfo(null, null, null, null, null, policies));
    s.addQueue("q-inf").reclaimable(false);
    s.addQueue("q-train").reclaimable(true);
    service =
        s.addJob("ns/svc")
            .queue("q-inf")
            .annotation("volcano.sh/service.type", "inference")
            .task("svc-0")
            .requests("cpu", "1");
    training =
        s.addJob("ns/train")
            .queue("q-train")
            .task("train-0")
            .owner("Job", "j")
            .status(TaskStatus.RUNNING);
    unknown = s.addJob("ns/other").queue("q-train").task("other-0").status(TaskStatus.RUNNING);
    return s;
  }

  RecordingExtensions open(FakeSession s, String... names) {
    return RecordingExtensions.open(factory.create(args(List.of(names))), s);
  }

  List<TaskInfo> victims(RecordingExtensions ext) {
    return ext.get(ExtensionPoint.RECLAIMABLE).select(service, List.of(training, unknown)).tasks();
  }

  @Test
  void open_registersTheNamedPolicysFunctions() {
    FakeSession s = session(Map.of("tidal.policy", tidal));

    RecordingExtensions ext = open(s, "tidal");

    assertThat(victims(ext)).containsExactly(training);
    assertThat(ext.get(ExtensionPoint.PREEMPTIVE).test(s.queue("q-inf"), List.of(service)))
        .isTrue();
    assertThat(ext.has(ExtensionPoint.EVENT_HANDLER)).as("tidal reads queue.allocated").isTrue();
    assertThat(ext.has(ExtensionPoint.JOB_ENQUEUEABLE)).isFalse();
    assertThat(s.events()).isEmpty();
  }

  @Test
  void missingPolicy_isAnUnmetRequirementNamingIt() {
    FakeSession s = session(Map.of("tidal.policy", tidal));

    List<String> unmet =
        factory.create(args(List.of("tidal", "custom"))).unmetRequirements(s.cluster());

    assertThat(unmet)
        .containsExactly(
            "policy \"custom\" is named in the arguments but no valid .policy file declares it");
    assertThat(factory.create(args(List.of("tidal"))).unmetRequirements(s.cluster())).isEmpty();
  }

  @Test
  void badEdit_isReportedOnceAndTheLastGoodVersionKeepsRunning() {
    FakeSession first = session(Map.of("tidal.policy", tidalReclaimingUnknown));
    assertThat(victims(open(first, "tidal"))).containsExactly(training, unknown);

    FakeSession second = session(Map.of("tidal.policy", brokenTidal));
    RecordingExtensions ext = open(second, "tidal");
    FakeSession third = session(Map.of("tidal.policy", brokenTidal));
    RecordingExtensions again = open(third, "tidal");

    assertThat(victims(ext)).as("last good version").containsExactly(training, unknown);
    assertThat(victims(again)).containsExactly(training, unknown);
    RecordedEvent error = second.events().get(0);
    assertThat(second.events()).hasSize(1);
    assertThat(error.kind()).isEqualTo("Policy");
    assertThat(error.key()).isEqualTo("tidal.policy");
    assertThat(error.reason()).isEqualTo("PolicyError");
    assertThat(error.message())
        .startsWith(
            "tidal.policy:16:3: unknown service class 'trainig' (known: inference, training,"
                + " unknown)\n")
        .endsWith("the last good version of policy tidal keeps running");
    assertThat(third.events()).as("reported once per text").isEmpty();
  }

  @Test
  void goodEdit_takesEffectAtTheNextSession() {
    assertThat(victims(open(session(Map.of("tidal.policy", tidal)), "tidal")))
        .containsExactly(training);

    RecordingExtensions edited =
        open(session(Map.of("tidal.policy", tidalReclaimingUnknown)), "tidal");

    assertThat(victims(edited)).containsExactly(training, unknown);
  }

  @Test
  void deletedFile_removesThePolicyAtTheNextSession() {
    FakeSession before = session(Map.of("tidal.policy", tidal));
    assertThat(factory.create(args(List.of("tidal"))).unmetRequirements(before.cluster()))
        .isEmpty();

    FakeSession after = session(Map.of());

    assertThat(factory.create(args(List.of("tidal"))).unmetRequirements(after.cluster()))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("policy \"tidal\" is named");
  }

  @Test
  void brokenFileWithoutAGoodVersion_isUnmetAndSaysWhy() {
    FakeSession s = session(Map.of("tidal.policy", brokenTidal));

    assertThat(factory.create(args(List.of("tidal"))).unmetRequirements(s.cluster()))
        .containsExactly(
            "policy \"tidal\" is named in the arguments but no valid .policy file declares it"
                + " (tidal.policy:16:3: unknown service class 'trainig' (known: inference,"
                + " training, unknown))");
  }

  // ------------------------------------------------------------------ debug: true

  RecordingExtensions openWithDebug(FakeSession s, Plugin plugin) {
    assertThat(plugin.unmetRequirements(s.cluster())).isEmpty();
    return RecordingExtensions.open(plugin, s);
  }

  Plugin debugPlugin() {
    return factory.create(
        new PluginArguments("policy", Map.of("policies", List.of("tidal"), "debug", true), false));
  }

  @Test
  void debug_recordsTheDecidingRuleOnEvictedAndSparedPods() {
    FakeSession s = session(Map.of("tidal.policy", tidal));
    Plugin plugin = debugPlugin();
    RecordingExtensions ext = openWithDebug(s, plugin);

    assertThat(victims(ext)).containsExactly(training);
    training.status(TaskStatus.RELEASING);
    ext.all(ExtensionPoint.EVENT_HANDLER).forEach(h -> h.deallocated(training));
    plugin.onSessionClose(s);

    assertThat(s.events())
        .extracting(e -> e.kind() + "/" + e.key() + " " + e.reason() + ": " + e.message())
        .containsExactly(
            "Pod/ns/train-0 PolicyEvicted: policy decision for reclaimer ns/svc-0: allowed by"
                + " tidal.policy:18 (any may reclaim training)",
            "Pod/ns/other-0 PolicySpared: policy decision for reclaimer ns/svc-0: denied by"
                + " tidal.policy:19 (otherwise deny)");
  }

  @Test
  void debug_aDiscardedEvictionIsNotReported() {
    FakeSession s = session(Map.of("tidal.policy", tidal));
    Plugin plugin = debugPlugin();
    RecordingExtensions ext = openWithDebug(s, plugin);

    victims(ext);
    training.status(TaskStatus.RELEASING);
    ext.all(ExtensionPoint.EVENT_HANDLER).forEach(h -> h.deallocated(training));
    training.status(TaskStatus.RUNNING);
    ext.all(ExtensionPoint.EVENT_HANDLER).forEach(h -> h.allocated(training));
    plugin.onSessionClose(s);

    assertThat(s.events()).extracting(RecordedEvent::reason).containsExactly("PolicySpared");
  }

  @Test
  void withoutDebug_noDecisionIsRecorded() {
    FakeSession s = session(Map.of("tidal.policy", tidal));
    Plugin plugin = factory.create(args(List.of("tidal")));
    RecordingExtensions ext = openWithDebug(s, plugin);

    victims(ext);
    plugin.onSessionClose(s);

    assertThat(s.events()).isEmpty();
  }

  @Test
  void aTextTheLoopChecked_isNotCompiledAgainBySessions() {
    assertThat(factory.check("tidal.policy", tidal)).isEmpty();
    assertThat(factory.policyName("tidal.policy", tidal)).isEqualTo("tidal");

    assertThat(victims(open(session(Map.of("tidal.policy", tidal)), "tidal"))).isNotEmpty();
    open(session(Map.of("tidal.policy", tidal)), "tidal");

    assertThat(factory.library().compilations()).isEqualTo(1);
  }

  @Test
  void anErrorTheLoopReported_isNotReportedAgainBySessions() {
    open(session(Map.of("tidal.policy", tidalReclaimingUnknown)), "tidal");
    assertThat(factory.check("tidal.policy", brokenTidal))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("tidal.policy:16:3: unknown service class 'trainig'");

    FakeSession s = session(Map.of("tidal.policy", brokenTidal));
    assertThat(victims(open(s, "tidal")))
        .as("last good version")
        .containsExactly(training, unknown);

    assertThat(s.events()).as("the loop's PolicyRejected was the one event").isEmpty();
    assertThat(factory.library().compilations()).isEqualTo(2);
  }

  @Test
  void sameText_isCompiledOnceAcrossSessions() {
    open(session(Map.of("tidal.policy", tidal)), "tidal");
    open(session(Map.of("tidal.policy", tidal)), "tidal");
    open(
        session(Map.of("tidal.policy", tidal, "copy.policy", tidal.replace("tidal", "copy"))),
        "tidal");

    assertThat(factory.library().compilations()).isEqualTo(2);
  }

  @Test
  void duplicatePolicyName_failsTheLaterFile() {
    FakeSession s = session(Map.of("a.policy", tidalReclaimingUnknown, "b.policy", tidal));

    RecordingExtensions ext = open(s, "tidal");

    assertThat(victims(ext)).containsExactly(training, unknown);
    assertThat(s.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.key()).isEqualTo("b.policy");
              assertThat(e.message())
                  .startsWith(
                      "b.policy:1:8: duplicate policy name 'tidal' (also declared at"
                          + " a.policy:1:8)");
            });
  }

  @Test
  void severalPolicies_mustAllAllowAVictim() {
    String onlyUnknown =
        "policy strict\nreclaim {\n  any may reclaim any when reclaimee.podgroup.name =="
            + " \"other\"\n  otherwise deny\n}\n";
    FakeSession s =
        session(Map.of("tidal.policy", tidalReclaimingUnknown, "strict.policy", onlyUnknown));

    RecordingExtensions ext = open(s, "tidal", "strict");

    assertThat(victims(ext)).containsExactly(unknown);
    assertThat(ext.get(ExtensionPoint.PREEMPTIVE).test(s.queue("q-inf"), List.of(service)))
        .isTrue();
  }
}
