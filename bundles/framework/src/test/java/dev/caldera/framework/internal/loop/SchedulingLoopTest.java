package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.Session;
import dev.caldera.api.host.PolicyChecker;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.Storage;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.internal.loop.LoopFixtures.MutableRegistry;
import dev.caldera.framework.internal.loop.LoopFixtures.OnePodCluster;
import dev.caldera.framework.internal.loop.LoopFixtures.RecordingFactory;
import dev.caldera.framework.loop.Health;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import dev.caldera.testkit.NodeBuilder;
import dev.caldera.testkit.PodBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulingLoopTest {

  private static final String CONF =
      """
      actions: "enqueue, allocate"
      tiers:
      - plugins:
        - name: quota
      """;

  @TempDir Path dir;

  private final MutableRegistry registry = new MutableRegistry();
  private final OnePodCluster cluster = new OnePodCluster();
  private final RecordingFactory quota = new RecordingFactory("quota");
  private final List<LoopEvent> events = new CopyOnWriteArrayList<>();
  private LoopState state;
  private PolicyChecker checker;

  /** Where loops keep their last good state; null for nowhere. */
  private Path lastGoodFile;

  @BeforeEach
  void writeConf() throws IOException {
    conf(CONF);
    Files.createDirectories(dir.resolve("policies"));
  }

  private void conf(String text) throws IOException {
    Files.writeString(dir.resolve("scheduler.conf"), text);
  }

  private SchedulingLoop loop(long maxSessions, Runnable onFinished) throws IOException {
    return loop(
        new SchedulingLoop.Settings(Duration.ofMillis(5), maxSessions, Duration.ZERO), onFinished);
  }

  private SchedulingLoop loop(SchedulingLoop.Settings settings, Runnable onFinished)
      throws IOException {
    return loop(cluster, settings, onFinished);
  }

  private SchedulingLoop loop(
      ClusterSource source, SchedulingLoop.Settings settings, Runnable onFinished)
      throws IOException {
    state = new LoopState(new RunLog(null, null, false), cluster);
    state.addListener(
        new SchedulerMonitor.Listener() {
          @Override
          public void eventRecorded(LoopEvent event) {
            events.add(event);
          }
        });
    LastGoodState lastGood = new LastGoodState(lastGoodFile, state::event);
    LastGoodState.State previous = lastGood.load();
    return new SchedulingLoop(
        registry,
        source,
        cluster,
        new ConfFile(dir.resolve("scheduler.conf"), state::event, lastGood, previous.conf()),
        new PolicyDirectory(dir.resolve("policies"), state::event, lastGood, previous.policies()),
        () -> checker,
        state,
        settings,
        Clock.systemUTC(),
        onFinished);
  }

  private SchedulingLoop loop() throws IOException {
    return loop(0, null);
  }

  private List<String> reasons(String reason) {
    return events.stream().filter(e -> e.reason().equals(reason)).map(LoopEvent::message).toList();
  }

  @Test
  void cycle_aWriterThatTakesBindsAtCommit_getsThemOnceAndTheSessionStillCountsThem()
      throws IOException {
    registry.add(quota, "quota-bundle 1.0.0");
    cluster.atCommit = OnePodCluster.AtCommit.TAKE;
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isTrue();

    assertThat(cluster.takenAtCommit)
        .extracting(b -> b.pod() + "@" + b.node())
        .containsExactly("ns/p1@n1");
    assertThat(cluster.applied).hasSize(1);
    assertThat(cluster.applied.get(0).binds()).as("not applied a second time").isEmpty();
    assertThat(Lines.session(state.sessions(10).get(0))).contains("binds=1");
  }

  @Test
  void cycle_aWriterThatFailsOnABindAtCommit_getsItWithTheSessionsResult() throws IOException {
    registry.add(quota, "quota-bundle 1.0.0");
    cluster.atCommit = OnePodCluster.AtCommit.THROW;
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isTrue();

    assertThat(cluster.applied.get(0).binds())
        .extracting(b -> b.pod() + "@" + b.node())
        .containsExactly("ns/p1@n1");
  }

  @Test
  void cycle_runsASessionAppliesItAndNamesThePluginBundles() throws IOException {
    registry.add(quota, "quota-bundle 1.0.0");
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isTrue();

    assertThat(cluster.applied).hasSize(1);
    assertThat(cluster.applied.get(0).binds())
        .extracting(b -> b.pod() + "@" + b.node())
        .containsExactly("ns/p1@n1");
    SessionRecord session = state.sessions(10).get(0);
    assertThat(session.plugins()).containsExactly(Map.entry("quota", "quota-bundle 1.0.0"));
    assertThat(Lines.session(session)).contains("binds=1", "quota=quota-bundle 1.0.0");
    assertThat(state.health().ready()).isTrue();
    assertThat(state.pluginUses())
        .singleElement()
        .satisfies(
            u -> {
              assertThat(u.origin()).isEqualTo("quota-bundle 1.0.0");
              assertThat(u.sessions()).isEqualTo(1);
            });
  }

  @Test
  void cycle_whileTheFrameworkShutsDown_reportsNoHoldForAPluginThatStopped() throws IOException {
    registry.add(quota, "quota-bundle 1.0.0");
    SchedulingLoop loop = loop();
    assertThat(loop.cycle()).isTrue();

    loop.shuttingDown(() -> true);
    registry.remove("quota");

    assertThat(loop.cycle()).isFalse();
    assertThat(cluster.applied).hasSize(1);
    assertThat(reasons("SchedulingHeld")).isEmpty();
    assertThat(state.health().state()).isNotEqualTo("holding");
  }

  @Test
  void cycle_holdsWhileAConfPluginIsMissing_andResumesWhenItIsLoaded() throws IOException {
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isFalse();
    assertThat(loop.cycle()).isFalse();

    assertThat(cluster.applied).isEmpty();
    assertThat(state.health().state()).isEqualTo("holding");
    assertThat(state.health().ready()).isFalse();
    assertThat(state.health().missingPlugins()).containsExactly("quota");
    assertThat(state.metrics().held()).isTrue();
    assertThat(state.metrics().heldPlugins()).containsExactly("quota");
    assertThat(reasons("SchedulingHeld")).singleElement().asString().contains("\"quota\"");

    registry.add(quota, "quota-bundle 1.0.0");
    assertThat(loop.cycle()).isTrue();

    assertThat(reasons("SchedulingResumed")).hasSize(1);
    assertThat(state.metrics().held()).isFalse();
    assertThat(state.health().missingPlugins()).isEmpty();
  }

  /** A {@code quota} plugin that needs {@code needed.policy} among the session's policies. */
  private static PluginFactory needsPolicy() {
    return new PluginFactory() {
      @Override
      public String name() {
        return "quota";
      }

      @Override
      public Plugin create(PluginArguments arguments) {
        return new Plugin() {
          @Override
          public String name() {
            return "quota";
          }

          @Override
          public List<String> unmetRequirements(dev.caldera.api.ClusterInfo info) {
            return info.policies().containsKey("needed.policy")
                ? List.of()
                : List.of("policy \"needed\" is not declared");
          }

          @Override
          public void onSessionOpen(Session session, Extensions extensions) {}
        };
      }
    };
  }

  @Test
  void cycle_holdsWhileAPluginsRequirementIsUnmet_andResumesWhenItIsThere() throws IOException {
    registry.add(needsPolicy(), "quota-bundle 1.0.0");
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isFalse();
    assertThat(loop.cycle()).isFalse();

    assertThat(cluster.applied).isEmpty();
    assertThat(state.health().state()).isEqualTo("holding");
    assertThat(state.health().ready()).isFalse();
    assertThat(state.health().reasons())
        .containsExactly("tiers[0].plugins[0] (quota): policy \"needed\" is not declared");
    assertThat(reasons("SchedulingResumed")).as("no resume while still held").isEmpty();
    assertThat(state.metrics().held()).isTrue();
    assertThat(reasons("SchedulingHeld")).singleElement().asString().contains("\"needed\"");

    Files.writeString(dir.resolve("policies/needed.policy"), "policy needed\n");
    assertThat(loop.cycle()).isTrue();

    assertThat(reasons("SchedulingResumed")).hasSize(1);
    assertThat(state.metrics().held()).isFalse();
  }

  @Test
  void cycle_schedulesWithoutAMissingOptionalPlugin() throws IOException {
    conf(CONF + "    optional: true\n");
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isTrue();
    assertThat(state.sessions(1).get(0).plugins()).isEmpty();
  }

  @Test
  void conf_invalidChangeIsReportedAndTheConfInForceStays() throws IOException {
    registry.add(quota, "q 1");
    SchedulingLoop loop = loop();
    loop.cycle();

    conf("actions: [enqueue\n");
    assertThat(loop.cycle()).isTrue();
    assertThat(loop.cycle()).isTrue();

    assertThat(reasons("ConfRejected")).singleElement().asString().contains("scheduler.conf");
    assertThat(state.conf().text()).isEqualTo(CONF);
    assertThat(state.conf().lastError()).contains("not valid YAML");
    assertThat(state.metrics().confRejections()).isEqualTo(1);
    assertThat(cluster.applied).hasSize(3);
  }

  @Test
  void conf_aBadPluginArgumentRefusesTheNewConf() throws IOException {
    registry.add(quota, "q 1");
    SchedulingLoop loop = loop();
    loop.cycle();

    conf(CONF + "    arguments: {bad: 1}\n");
    loop.cycle();

    assertThat(reasons("ConfRejected")).singleElement().asString().contains("bad");
    assertThat(state.conf().text()).isEqualTo(CONF);
  }

  @Test
  void conf_aValidNewVersionIsUsedFromTheNextSession() throws IOException {
    registry.add(quota, "q 1");
    SchedulingLoop loop = loop();
    loop.cycle();

    conf(CONF.replace("enqueue, allocate", "enqueue"));
    loop.cycle();

    assertThat(reasons("ConfReloaded")).hasSize(1);
    assertThat(cluster.applied.get(0).binds()).hasSize(1);
    assertThat(cluster.applied.get(1).binds()).isEmpty();
    assertThat(state.conf().actions()).containsExactly("enqueue");
    assertThat(state.metrics().confReloads()).isEqualTo(2);
  }

  @Test
  void conf_aMissingFileHoldsUntilItAppears() throws IOException {
    registry.add(quota, "q 1");
    Files.delete(dir.resolve("scheduler.conf"));
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isFalse();
    assertThat(state.health().reasons()).singleElement().asString().contains("does not exist");

    conf(CONF);
    assertThat(loop.cycle()).isTrue();
  }

  @Test
  void policies_reachTheSessions_andARefusedFileKeepsItsLastGoodVersion() throws IOException {
    registry.add(quota, "q 1");
    checker =
        (file, text) -> text.contains("error") ? List.of(file + ":1:1: bad token") : List.of();
    cluster.policies = Map.of("from-cluster.policy", "c", "tidal.policy", "old");
    Path tidal = dir.resolve("policies/tidal.policy");
    Files.writeString(tidal, "good");
    Files.writeString(dir.resolve("policies/notes.txt"), "ignored");
    SchedulingLoop loop = loop();
    loop.cycle();

    Files.writeString(tidal, "an error");
    loop.cycle();

    assertThat(quota.policiesSeen.get(0))
        .containsExactly(Map.entry("from-cluster.policy", "c"), Map.entry("tidal.policy", "good"));
    assertThat(quota.policiesSeen.get(1)).containsEntry("tidal.policy", "good");
    assertThat(reasons("PolicyRejected"))
        .singleElement()
        .asString()
        .contains("tidal.policy:1:1: bad token", "last good version");
    assertThat(state.metrics().policyErrors()).isEqualTo(1);
    assertThat(state.metrics().policyFilesInError()).containsExactly("tidal.policy");
    assertThat(state.policies()).containsExactly(Map.entry("tidal.policy", "good"));

    Files.delete(tidal);
    loop.cycle();
    assertThat(state.metrics().policyFilesInError()).isEmpty();
    assertThat(quota.policiesSeen.get(2)).containsEntry("tidal.policy", "old");
    assertThat(reasons("PolicyRemoved")).hasSize(1);
  }

  @Test
  void policies_aCheckerThatThrowsOnAFile_refusesThatFileOnce_andOtherChangesGoOn()
      throws IOException {
    registry.add(quota, "q 1");
    java.util.concurrent.atomic.AtomicInteger checks =
        new java.util.concurrent.atomic.AtomicInteger();
    checker =
        (file, text) -> {
          checks.incrementAndGet();
          if (text.contains("huge")) {
            throw new OutOfMemoryError("Java heap space");
          }
          return List.of();
        };
    Path policies = dir.resolve("policies");
    Files.writeString(policies.resolve("a.policy"), "fine");
    SchedulingLoop loop = loop();
    loop.cycle();

    Files.writeString(policies.resolve("a.policy"), "huge");
    Files.writeString(policies.resolve("b.policy"), "new");
    loop.cycle();
    loop.cycle();
    loop.cycle();

    assertThat(reasons("PolicyRejected"))
        .singleElement()
        .asString()
        .contains("a.policy: cannot be checked: OutOfMemoryError: Java heap space")
        .contains("last good version");
    assertThat(state.policies())
        .containsExactly(Map.entry("a.policy", "fine"), Map.entry("b.policy", "new"));
    assertThat(checks).hasValue(3);

    Files.writeString(policies.resolve("a.policy"), "fine again");
    loop.cycle();
    assertThat(state.policies()).containsEntry("a.policy", "fine again");
  }

  @Test
  void restart_afterRefusedEdits_startsFromTheLastGoodConfAndPolicies_andSaysSo()
      throws IOException {
    lastGoodFile = dir.resolve("log/" + LastGoodState.FILE_NAME);
    Files.createDirectories(lastGoodFile.getParent());
    registry.add(quota, "q 1");
    checker =
        (file, text) -> text.contains("error") ? List.of(file + ":1:1: bad token") : List.of();
    Path policies = dir.resolve("policies");
    Files.writeString(policies.resolve("tidal.policy"), "good");
    Files.writeString(policies.resolve("gone.policy"), "removed while down");
    assertThat(loop().cycle()).isTrue();
    assertThat(lastGoodFile).exists();

    conf("actions: [broken\n");
    Files.writeString(policies.resolve("tidal.policy"), "an error");
    Files.delete(policies.resolve("gone.policy"));
    events.clear();
    quota.policiesSeen.clear();
    SchedulingLoop restarted = loop();

    assertThat(restarted.cycle()).isTrue();
    assertThat(reasons("ConfFromLastGood"))
        .singleElement()
        .asString()
        .contains("last good conf of the previous run", "scheduler.conf is refused", "quota");
    assertThat(reasons("ConfRejected"))
        .singleElement()
        .asString()
        .contains("the last good conf, kept from the previous run, is in force");
    assertThat(reasons("PoliciesFromLastGood"))
        .singleElement()
        .asString()
        .contains("gone.policy, tidal.policy");
    assertThat(reasons("PolicyRejected"))
        .singleElement()
        .asString()
        .contains("tidal.policy:1:1: bad token", "last good version");
    assertThat(state.policies()).containsExactly(Map.entry("tidal.policy", "good"));
    assertThat(quota.policiesSeen.get(0)).containsExactly(Map.entry("tidal.policy", "good"));
  }

  @Test
  void restart_beforeThePolicyCheckerIsThere_keepsTheLastGoodPoliciesUntilItComes()
      throws IOException {
    lastGoodFile = dir.resolve(LastGoodState.FILE_NAME);
    registry.add(quota, "q 1");
    checker =
        (file, text) -> text.contains("error") ? List.of(file + ":1:1: bad token") : List.of();
    Path tidal = dir.resolve("policies/tidal.policy");
    Files.writeString(tidal, "good");
    loop().cycle();

    Files.writeString(tidal, "an error");
    PolicyChecker later = checker;
    checker = null;
    SchedulingLoop restarted = loop();
    restarted.cycle();
    assertThat(state.policies()).containsExactly(Map.entry("tidal.policy", "good"));

    checker = later;
    restarted.cycle();
    assertThat(state.policies()).containsExactly(Map.entry("tidal.policy", "good"));
    assertThat(reasons("PolicyRejected")).singleElement().asString().contains("last good");
  }

  @Test
  void restart_withoutALastGoodState_holdsOnARefusedConf() throws IOException {
    lastGoodFile = dir.resolve(LastGoodState.FILE_NAME);
    registry.add(quota, "q 1");
    conf("actions: [broken\n");

    assertThat(loop().cycle()).isFalse();
    assertThat(reasons("ConfFromLastGood")).isEmpty();
    assertThat(state.health().reasons()).singleElement().asString().startsWith("no valid conf");
  }

  @Test
  void aPolicyBeingChecked_holdsTheStartForOneWaitOnly_sayingItIsBeingChecked() throws Exception {
    registry.add(needsPolicy(), "quota-bundle 1.0.0");
    CountDownLatch release = new CountDownLatch(1);
    checker =
        (file, text) -> {
          try {
            release.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return List.of();
        };
    Files.writeString(dir.resolve("policies/needed.policy"), "policy needed\n");
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isFalse();
    assertThat(state.health().reasons())
        .first()
        .isEqualTo(
            "checking policy files needed.policy (their policies are in force from the cycle"
                + " after the check)");

    release.countDown();
    assertThat(loop.cycle()).isTrue();
  }

  @Test
  void policies_putInForceBeforeTheCheckerCame_areCheckedWhenItComes() throws IOException {
    registry.add(quota, "q 1");
    checker = null;
    Files.writeString(dir.resolve("policies/good.policy"), "fine");
    Files.writeString(dir.resolve("policies/bad.policy"), "an error");
    SchedulingLoop loop = loop();
    loop.cycle();
    assertThat(state.policies()).containsOnlyKeys("bad.policy", "good.policy");

    checker =
        (file, text) -> text.contains("error") ? List.of(file + ":1:1: bad token") : List.of();
    loop.cycle();
    loop.cycle();

    assertThat(state.policies()).containsExactly(Map.entry("good.policy", "fine"));
    assertThat(quota.policiesSeen.get(1)).containsExactly(Map.entry("good.policy", "fine"));
    assertThat(reasons("PolicyRejected"))
        .singleElement()
        .asString()
        .contains("bad.policy:1:1: bad token")
        .doesNotContain("last good version");
    assertThat(reasons("PolicyLoaded")).hasSize(2);
    assertThat(reasons("PolicyReloaded")).isEmpty();
    assertThat(state.metrics().policyFilesInError()).containsExactly("bad.policy");
  }

  @Test
  void pluginChanges_areReportedAndCounted() throws IOException {
    registry.add(quota, "q 1");
    SchedulingLoop loop = loop();
    loop.cycle();

    registry.add(new RecordingFactory("quota"), "q 2");
    loop.cycle();
    registry.remove("quota");
    loop.cycle();

    assertThat(reasons("PluginsLoaded")).containsExactly("1 plugins: quota");
    assertThat(reasons("PluginUpdated")).containsExactly("quota: q 1 -> q 2");
    assertThat(reasons("PluginUnloaded")).containsExactly("quota (was q 2)");
    assertThat(state.metrics().pluginLoads()).containsEntry("quota", 2L);
    assertThat(state.metrics().pluginUnloads()).containsEntry("quota", 2L);
    assertThat(state.sessions(10))
        .extracting(s -> s.plugins().get("quota"))
        .containsExactly("q 1", "q 2");
  }

  @Test
  void session_keepsThePluginsItOpenedWith_changesApplyToTheNextOne() throws IOException {
    RecordingFactory replacement = new RecordingFactory("quota");
    PluginFactory swapping = quotaDoing(() -> registry.add(replacement, "q 2"));
    registry.add(swapping, "q 1");
    SchedulingLoop loop = loop();

    loop.cycle();
    loop.cycle();

    assertThat(state.sessions(10))
        .extracting(s -> s.plugins().get("quota"))
        .containsExactly("q 1", "q 2");
    assertThat(replacement.policiesSeen).hasSize(1);
  }

  @Test
  void stop_letsTheSessionInFlightFinishAndApply() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    registry.add(
        quotaDoing(
            () -> {
              entered.countDown();
              try {
                release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }),
        "q 1");
    SchedulingLoop loop = loop();
    loop.start();
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Boolean> stopped =
        CompletableFuture.supplyAsync(() -> loop.stop(Duration.ofSeconds(30)));
    // Released only once the stop has begun: released before, the session would end and the next
    // one start (5 ms later) while the stop is still on its way, as on a busy machine it was.
    waitFor(loop::stopping);
    assertThat(loop.stopping()).isTrue();
    assertThat(stopped).isNotDone();
    release.countDown();

    assertThat(stopped.get(30, TimeUnit.SECONDS)).isTrue();
    assertThat(cluster.applied).hasSize(1);
    assertThat(cluster.applied.get(0).binds()).hasSize(1);
    assertThat(state.health().state()).isEqualTo("stopped");
  }

  @Test
  void start_stopsAfterMaxSessionsAndSaysSo() throws Exception {
    registry.add(quota, "q 1");
    CountDownLatch finished = new CountDownLatch(1);
    SchedulingLoop loop = loop(3, finished::countDown);

    loop.start();

    assertThat(finished.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(loop.stop(Duration.ofSeconds(30))).isTrue();
    assertThat(cluster.applied).hasSize(3);
    assertThat(state.health().state()).isEqualTo("finished");
    assertThat(reasons("SchedulingFinished")).containsExactly("3 sessions ran, as asked");
  }

  @Test
  void cycle_standsByWhileAnotherReplicaLeads_readyButNoSession() throws IOException {
    registry.add(quota, "q 1");
    cluster.status = SourceStatus.standby("the leader is replica-b");
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isFalse();
    assertThat(loop.cycle()).isFalse();

    assertThat(cluster.applied).isEmpty();
    assertThat(state.health().state()).isEqualTo("standby");
    assertThat(state.health().ready()).isTrue();
    assertThat(state.health().reasons()).containsExactly("the leader is replica-b");
    assertThat(reasons("SchedulingStandby")).containsExactly("the leader is replica-b");
    assertThat(Lines.status(state.health(), state.metrics(), 0))
        .endsWith("standby: the leader is replica-b");

    cluster.status = SourceStatus.ready();
    assertThat(loop.cycle()).isTrue();
    assertThat(state.health().state()).isEqualTo("running");
    assertThat(reasons("SchedulingResumed")).hasSize(1);
  }

  @Test
  void cycle_waitsWhileTheSourceIsNotReady_andIsNotReady() throws IOException {
    registry.add(quota, "q 1");
    cluster.status = SourceStatus.notReady("cannot hold the lease: HTTP 403");
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isFalse();
    assertThat(loop.cycle()).isFalse();

    assertThat(cluster.applied).isEmpty();
    assertThat(state.health().state()).isEqualTo("waiting");
    assertThat(state.health().ready()).isFalse();
    assertThat(reasons("SchedulingWaiting")).containsExactly("cannot hold the lease: HTTP 403");
  }

  @Test
  void metrics_countWhatTheWriterSaysWasAccepted_notDecisions() throws IOException {
    registry.add(quota, "q 1");
    SchedulingLoop loop = loop();
    assertThat(loop.cycle()).isTrue();
    assertThat(loop.cycle()).isTrue();
    assertThat(state.metrics().binds()).as("decisions, without a writer count").isEqualTo(2);

    cluster.accepted = new ClusterWriter.Accepted(1, 0);

    assertThat(state.metrics().binds()).isEqualTo(1);
    assertThat(Lines.status(state.health(), state.metrics(), 0)).contains("binds 1,");
  }

  /** A quota plugin whose session opening runs {@code onOpen}. */
  private static PluginFactory quotaDoing(Runnable onOpen) {
    return quotaOpening(session -> onOpen.run());
  }

  /** A quota plugin whose session opening runs {@code onOpen} with the session. */
  private static PluginFactory quotaOpening(java.util.function.Consumer<Session> onOpen) {
    return new PluginFactory() {
      @Override
      public String name() {
        return "quota";
      }

      @Override
      public Plugin create(PluginArguments arguments) {
        return new Plugin() {
          @Override
          public String name() {
            return "quota";
          }

          @Override
          public void onSessionOpen(Session session, Extensions extensions) {
            onOpen.accept(session);
          }
        };
      }
    };
  }

  @Test
  void anInvalidSettingOnAnObject_reachesTheLoopsEvents_oncePerAppearance() throws Exception {
    AtomicInteger session = new AtomicInteger();
    String bad = "volcano.sh/card.quota: expected a whole number of cards, got \"x\"";
    registry.add(
        quotaOpening(
            s -> {
              int n = session.incrementAndGet();
              if (n != 3) {
                s.recordEvent("Queue", "training", "Warning", "InvalidCardAnnotation", bad);
              }
              s.recordEvent("Queue", "training", "Normal", "InvalidLooking", "not a warning");
              s.recordEvent("Pod", "ns/p", "Warning", "FailedScheduling", "not a setting");
            }),
        "q 1");
    SchedulingLoop loop = loop();

    for (int i = 0; i < 4; i++) {
      assertThat(loop.cycle()).isTrue();
    }

    assertThat(reasons("InvalidCardAnnotation"))
        .containsExactly("Queue training: " + bad, "Queue training: " + bad);
    assertThat(reasons("InvalidLooking")).isEmpty();
    assertThat(reasons("FailedScheduling")).isEmpty();
    assertThat(state.events(50)).extracting(LoopEvent::reason).contains("InvalidCardAnnotation");
  }

  @Test
  void auditDisagreements_areKeptForTheApi_andEachNewOneIsReportedOnce() throws Exception {
    String first =
        "audit policy strict would deny reclaiming ai/train-1 for ai/db-0: by strict.policy:19"
            + " (otherwise deny); enforced: allowed, by tidal.policy:18 (any may reclaim training)";
    String second = first.replace("train-1", "train-2");
    AtomicInteger session = new AtomicInteger();
    registry.add(
        quotaOpening(
            s -> {
              s.recordEvent("Pod", "ai/train-1", "Normal", "PolicyAudit", first);
              if (session.incrementAndGet() == 2) {
                s.recordEvent("Pod", "ai/train-2", "Normal", "PolicyAudit", second);
              }
            }),
        "q 1");
    SchedulingLoop loop = loop();

    for (int i = 0; i < 3; i++) {
      assertThat(loop.cycle()).isTrue();
    }

    assertThat(reasons("PolicyAudit"))
        .containsExactly("Pod ai/train-1: " + first, "Pod ai/train-2: " + second);
    assertThat(state.auditDisagreements())
        .extracting(d -> d.object() + " " + d.sessions())
        .containsExactly("ai/train-2 1", "ai/train-1 3");
    assertThat(state.auditDisagreements().get(1).message()).isEqualTo(first);
  }

  @Test
  void start_anErrorInASessionIsReportedAndTheLoopGoesOn() throws Exception {
    AtomicInteger opened = new AtomicInteger();
    registry.add(
        quotaDoing(
            () -> {
              int n = opened.incrementAndGet();
              if (n == 1) {
                throw new StackOverflowError();
              }
              if (n == 2) {
                throw new AssertionError("a plugin's own check");
              }
            }),
        "q 1");
    CountDownLatch finished = new CountDownLatch(1);
    SchedulingLoop loop = loop(1, finished::countDown);

    loop.start();

    assertThat(finished.await(30, TimeUnit.SECONDS)).isTrue();
    loop.stop(Duration.ofSeconds(30));
    assertThat(reasons("SessionFailed"))
        .hasSize(2)
        .satisfiesExactly(
            m -> assertThat(m).startsWith("session skipped: java.lang.StackOverflowError"),
            m -> assertThat(m).contains("java.lang.AssertionError: a plugin's own check"));
    assertThat(cluster.applied).hasSize(1);
  }

  @Test
  void cycleSafely_outOfMemoryEndsTheLoopAndHealthSaysSo() throws IOException {
    registry.add(
        quotaDoing(
            () -> {
              throw new OutOfMemoryError("Java heap space");
            }),
        "q 1");
    SchedulingLoop loop = loop();

    assertThatThrownBy(loop::cycleSafely).isInstanceOf(OutOfMemoryError.class);

    assertThat(state.health().live()).isFalse();
    assertThat(state.health().state()).isEqualTo("failed");
    assertThat(reasons("SchedulingFailed")).singleElement().asString().contains("Java heap space");
  }

  @Test
  void readiness_saysStuckWhileASessionRunsPastItsDeadline_wellBeforeTheLivenessTimeout()
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger opened = new AtomicInteger();
    registry.add(
        quotaDoing(
            () -> {
              if (opened.incrementAndGet() == 2) {
                entered.countDown();
                try {
                  release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            }),
        "q 1");
    SchedulingLoop loop =
        loop(
            new SchedulingLoop.Settings(
                Duration.ofMillis(5), null, 0, Duration.ZERO, AN_HOUR, Duration.ofMillis(200)),
            null);
    loop.start();
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
    waitFor(() -> !state.health().ready());
    Health stuck = state.health();
    release.countDown();

    assertThat(stuck.ready()).isFalse();
    assertThat(stuck.live()).as("live until the liveness timeout").isTrue();
    assertThat(stuck.state()).isEqualTo("stuck");
    assertThat(stuck.reasons())
        .anySatisfy(r -> assertThat(r).contains("past the session deadline (PT0.2S)"));
    waitFor(() -> state.health().ready());
    assertThat(state.health().ready()).isTrue();
    assertThat(state.health().state()).isEqualTo("running");
    loop.stop(Duration.ofSeconds(30));
  }

  @Test
  void settings_theDefaultSessionDeadlineIs30sOrThreePeriods_withinTheLivenessTimeout() {
    assertThat(
            new SchedulingLoop.Settings(Duration.ofSeconds(1), 0, Duration.ZERO).sessionDeadline())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(
            new SchedulingLoop.Settings(Duration.ofSeconds(20), 0, Duration.ZERO).sessionDeadline())
        .isEqualTo(Duration.ofSeconds(60));
    assertThat(
            new SchedulingLoop.Settings(
                    Duration.ofMillis(5), null, 0, Duration.ZERO, Duration.ofMillis(300))
                .sessionDeadline())
        .isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void health_isNotLiveWhileACycleOverrunsTheLivenessTimeout_andLiveAgainAfter() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger opened = new AtomicInteger();
    registry.add(
        quotaDoing(
            () -> {
              if (opened.incrementAndGet() == 2) {
                entered.countDown();
                try {
                  release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            }),
        "q 1");
    SchedulingLoop loop =
        loop(
            new SchedulingLoop.Settings(
                Duration.ofMillis(5), null, 0, Duration.ZERO, Duration.ofMillis(300)),
            null);
    loop.start();
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(state.health().live()).isTrue();

    Thread.sleep(600);
    Health stuck = state.health();
    release.countDown();

    assertThat(stuck.live()).isFalse();
    assertThat(stuck.ready()).isFalse();
    assertThat(stuck.reasons())
        .anySatisfy(r -> assertThat(r).contains("has not finished a cycle since"));
    waitFor(() -> state.health().live());
    assertThat(state.health().live()).isTrue();
    loop.stop(Duration.ofSeconds(30));
  }

  @Test
  void cycle_anOversizedPodOrNodeIsRefusedByName_andTheRestIsScheduled() throws IOException {
    registry.add(quota, "q 1");
    ClusterSnapshot base = cluster.snapshot();
    ClusterSnapshot withBadOnes =
        new ClusterSnapshot(
            List.of(
                base.nodes().get(0),
                NodeBuilder.node("huge").allocatable("cpu", "1e30", "memory", "8Gi").build(),
                NodeBuilder.node("negative").allocatable("cpu", "4", "memory", "-1Gi").build()),
            List.of(
                PodBuilder.pod("ns/greedy")
                    .annotation("scheduling.k8s.io/group-name", "pg1")
                    .requests("cpu", "1", "memory", "9000Ei")
                    .build(),
                base.pods().get(0)),
            base.podGroups(),
            base.queues(),
            base.info(),
            base.now());
    SchedulingLoop loop = loop(fixed(withBadOnes));

    assertThat(loop.cycle()).isTrue();
    loop.cycle();

    assertThat(cluster.applied.get(0).binds())
        .extracting(b -> b.pod() + "@" + b.node())
        .containsExactly("ns/p1@n1");
    assertThat(reasons("ObjectRefused"))
        .containsExactly(
            "Node huge is not scheduled: status.allocatable.cpu: 1e30 is too large; expected at"
                + " most 9223372036854775.807 (Kubernetes' largest milli-value)",
            "Node negative is not scheduled: status.allocatable.memory: -1Gi is negative;"
                + " expected a quantity of at least 0",
            "Pod ns/greedy is not scheduled: spec.containers[0].resources.requests.memory: 9000Ei"
                + " is too large; expected at most 9223372036854775.807 (Kubernetes' largest"
                + " milli-value)");
    assertThat(cluster.applied.get(0).events())
        .filteredOn(e -> e.reason().equals("ResourceOutOfRange"))
        .extracting(e -> e.kind() + " " + e.object())
        .containsExactly("Node huge", "Node negative", "Pod ns/greedy");
    assertThat(state.health().ready()).isTrue();
  }

  @Test
  void cycle_aVolumeOfUnknownPhaseIsReportedOnceAsRefused_andTheRestIsScheduled()
      throws IOException {
    registry.add(quota, "q 1");
    ClusterSnapshot base = cluster.snapshot();
    PersistentVolume odd =
        new PersistentVolume(
            ObjectMeta.named(null, "pv1"),
            Quantity.parse("10Gi"),
            List.of("ReadWriteOnce"),
            "local",
            null,
            null,
            null,
            null,
            "Attached",
            null);
    ClusterSnapshot withBadVolume =
        new ClusterSnapshot(
            base.nodes(),
            base.pods(),
            base.podGroups(),
            base.queues(),
            base.info().withStorage(new Storage(List.of(odd), null, null, null)),
            base.now());
    SchedulingLoop loop = loop(fixed(withBadVolume));

    assertThat(loop.cycle()).isTrue();
    loop.cycle();

    assertThat(cluster.applied.get(0).binds())
        .extracting(b -> b.pod() + "@" + b.node())
        .containsExactly("ns/p1@n1");
    assertThat(reasons("ObjectRefused"))
        .containsExactly(
            "PersistentVolume pv1 is not used: status.phase: \"Attached\" is not a volume phase;"
                + " expected one of Pending, Available, Bound, Released, Failed");
  }

  /** The loop's cluster, telling the loop when work arrives as the kube source does. */
  private final class WakingCluster implements ClusterSource {
    volatile Runnable listener;
    volatile Runnable duringSnapshot = () -> {};

    @Override
    public ClusterSnapshot snapshot() {
      duringSnapshot.run();
      return cluster.snapshot();
    }

    @Override
    public void onWorkArrived(Runnable l) {
      listener = l;
    }

    void arrive() {
      listener.run();
    }
  }

  private static final Duration AN_HOUR = Duration.ofHours(1);

  private void awaitSessions(long n) throws InterruptedException {
    waitFor(() -> state.sessionCount() >= n);
    assertThat(state.sessionCount()).as("sessions run").isGreaterThanOrEqualTo(n);
  }

  /** Polls {@code condition} until it holds or 30 s passed; the caller asserts what it needs. */
  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  @Test
  void start_workArriving_startsASessionAfterTheDebounce_notAPeriodLater() throws Exception {
    registry.add(quota, "q 1");
    WakingCluster source = new WakingCluster();
    SchedulingLoop loop =
        loop(
            source,
            new SchedulingLoop.Settings(AN_HOUR, Duration.ofMillis(10), 0, Duration.ZERO),
            null);
    loop.start();
    awaitSessions(1);

    source.arrive();

    awaitSessions(2);
    loop.stop(Duration.ofSeconds(30));
    assertThat(source.listener).as("the listener after stop").isNull();
  }

  @Test
  void start_aBurstOfArrivalsWithinTheDebounce_isOneSession() throws Exception {
    registry.add(quota, "q 1");
    WakingCluster source = new WakingCluster();
    SchedulingLoop loop =
        loop(
            source,
            new SchedulingLoop.Settings(AN_HOUR, Duration.ofMillis(300), 0, Duration.ZERO),
            null);
    loop.start();
    awaitSessions(1);

    for (int i = 0; i < 50; i++) {
      source.arrive();
    }
    awaitSessions(2);
    Thread.sleep(900); // three debounces: a session per arrival would have shown by now

    assertThat(state.sessionCount()).isEqualTo(2);
    loop.stop(Duration.ofSeconds(30));
  }

  @Test
  void start_workArrivingDuringASession_runsAnotherAfterIt() throws Exception {
    registry.add(quota, "q 1");
    WakingCluster source = new WakingCluster();
    AtomicInteger snapshots = new AtomicInteger();
    source.duringSnapshot =
        () -> {
          if (snapshots.incrementAndGet() == 1) {
            source.arrive(); // after this session's snapshot was decided on
          }
        };
    SchedulingLoop loop =
        loop(source, new SchedulingLoop.Settings(AN_HOUR, Duration.ZERO, 0, Duration.ZERO), null);
    loop.start();

    awaitSessions(2);
    loop.stop(Duration.ofSeconds(30));
  }

  @Test
  void start_afterALongSession_aWokenSessionWaitsAsLongAsItTook() throws Exception {
    List<Long> starts = new CopyOnWriteArrayList<>();
    List<Long> ends = new CopyOnWriteArrayList<>();
    WakingCluster source = new WakingCluster();
    registry.add(
        quotaDoing(
            () -> {
              starts.add(System.nanoTime());
              if (starts.size() == 1) {
                source.arrive();
                try {
                  Thread.sleep(400);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              ends.add(System.nanoTime());
            }),
        "q 1");
    SchedulingLoop loop =
        loop(source, new SchedulingLoop.Settings(AN_HOUR, Duration.ZERO, 0, Duration.ZERO), null);
    loop.start();

    awaitSessions(2);
    loop.stop(Duration.ofSeconds(30));

    assertThat(starts.get(1) - ends.get(0))
        .as("the pause after a 400 ms session, in ns")
        .isGreaterThanOrEqualTo(Duration.ofMillis(350).toNanos());
  }

  @Test
  void start_withoutADebounce_doesNotListenForWork() throws Exception {
    registry.add(quota, "q 1");
    WakingCluster source = new WakingCluster();
    SchedulingLoop loop =
        loop(source, new SchedulingLoop.Settings(AN_HOUR, 0, Duration.ZERO), null);
    loop.start();
    awaitSessions(1);

    assertThat(source.listener).isNull();
    loop.stop(Duration.ofSeconds(30));
  }

  /** The loop's cluster, but every snapshot is {@code snapshot}. */
  private ClusterSource fixed(ClusterSnapshot snapshot) {
    return () -> snapshot;
  }

  private SchedulingLoop loop(ClusterSource source) throws IOException {
    return loop(source, new SchedulingLoop.Settings(Duration.ofMillis(5), 0, Duration.ZERO), null);
  }

  /** A checker that finds no errors and reads the name from a first line {@code policy NAME}. */
  private static PolicyChecker namingChecker() {
    return new PolicyChecker() {
      @Override
      public List<String> check(String fileName, String text) {
        return List.of();
      }

      @Override
      public String policyName(String fileName, String text) {
        return text.lines().findFirst().orElse("").replace("policy ", "").trim();
      }
    };
  }

  @Test
  void policies_aSecondFileDeclaringANameInForceIsRefused_andTheOneInForceStays()
      throws IOException {
    registry.add(quota, "q 1");
    checker = namingChecker();
    Path policies = dir.resolve("policies");
    Files.writeString(policies.resolve("tidal.policy"), "policy tidal\nrules A\n");
    SchedulingLoop loop = loop();
    loop.cycle();

    Files.writeString(policies.resolve("a-copy.policy"), "policy tidal\nrules B\n");
    loop.cycle();

    assertThat(quota.policiesSeen.get(1))
        .containsExactly(Map.entry("tidal.policy", "policy tidal\nrules A\n"));
    assertThat(reasons("PolicyRejected"))
        .containsExactly(
            "a-copy.policy:1:8: duplicate policy name 'tidal' (P500): tidal.policy declares it"
                + " and stays in force");
    assertThat(state.metrics().policyFilesInError()).containsExactly("a-copy.policy");

    Files.delete(policies.resolve("tidal.policy"));
    loop.cycle();

    assertThat(quota.policiesSeen.get(2))
        .containsExactly(Map.entry("a-copy.policy", "policy tidal\nrules B\n"));
  }

  @Test
  void conf_aHugeFileIsRefusedUnread_andTheConfInForceStays() throws IOException {
    registry.add(quota, "q 1");
    SchedulingLoop loop = loop();
    assertThat(loop.cycle()).isTrue();

    conf("actions: \"" + "a".repeat(5 * 1024 * 1024) + "\"\n");
    assertThat(loop.cycle()).isTrue();

    assertThat(reasons("ConfRejected"))
        .singleElement()
        .asString()
        .contains("scheduler.conf is too large: 5242892 bytes, at most 262144 are read")
        .contains("stays in force");
    assertThat(state.conf().actions()).containsExactly("enqueue", "allocate");
  }

  @Test
  void policies_aFileThatIsNotUtf8IsRefusedAsThatFilesError_andTheOthersLoad() throws IOException {
    registry.add(quota, "q 1");
    checker = (file, text) -> List.of();
    Path policies = dir.resolve("policies");
    Files.writeString(policies.resolve("good.policy"), "policy good\n");
    Files.write(policies.resolve("latin1.policy"), new byte[] {'p', 'o', (byte) 0xE9, '\n'});
    SchedulingLoop loop = loop();

    loop.cycle();
    loop.cycle();

    assertThat(reasons("PolicyRejected"))
        .containsExactly("latin1.policy: not UTF-8 text (policy files are read as UTF-8)");
    assertThat(state.policies()).containsOnlyKeys("good.policy");
    assertThat(state.metrics().policyFilesInError()).containsExactly("latin1.policy");
  }

  @Test
  void policies_aHugeFileIsRefusedUnread() throws IOException {
    registry.add(quota, "q 1");
    checker = (file, text) -> List.of();
    Files.writeString(dir.resolve("policies/huge.policy"), "#".repeat(1_000_001));
    SchedulingLoop loop = loop();

    loop.cycle();

    assertThat(reasons("PolicyRejected"))
        .containsExactly("huge.policy: too large: 1000001 bytes, at most 1000000 are read");
    assertThat(state.policies()).isEmpty();
  }

  @Test
  void cycle_aMissingOptionalPluginIsWarnedOnceWithTheNearestName_untilItIsLoaded()
      throws IOException {
    registry.add(new RecordingFactory("binpack"), "b 1");
    conf(
        """
        actions: "enqueue, allocate"
        tiers:
        - plugins:
          - name: bnipack
            optional: true
        """);
    SchedulingLoop loop = loop();

    assertThat(loop.cycle()).isTrue();
    assertThat(loop.cycle()).isTrue();

    assertThat(reasons("PluginSkipped"))
        .containsExactly(
            "plugin \"bnipack\" (tiers[0]) is optional and not loaded: sessions run without it"
                + " (did you mean \"binpack\"?)");
    registry.add(new RecordingFactory("bnipack"), "x 1");
    loop.cycle();
    registry.remove("bnipack");
    loop.cycle();
    assertThat(reasons("PluginSkipped")).hasSize(2);
  }

  @Test
  void cycleSafely_theSameFailureEveryCycleIsReportedOnce_andReadinessSaysWhy() throws IOException {
    AtomicInteger opened = new AtomicInteger();
    registry.add(
        quotaDoing(
            () -> {
              if (opened.incrementAndGet() <= 3) {
                throw new IllegalStateException("broken plugin");
              }
            }),
        "q 1");
    SchedulingLoop loop = loop();

    for (int i = 0; i < 3; i++) {
      loop.cycleSafely();
    }
    assertThat(state.health().ready()).isFalse();
    assertThat(state.health().reasons())
        .singleElement()
        .asString()
        .startsWith("the last session failed: java.lang.IllegalStateException: broken plugin");
    loop.cycleSafely();

    assertThat(reasons("SessionFailed")).hasSize(1);
    assertThat(reasons("SchedulingResumed")).hasSize(1);
    assertThat(state.health().ready()).isTrue();
  }
}
