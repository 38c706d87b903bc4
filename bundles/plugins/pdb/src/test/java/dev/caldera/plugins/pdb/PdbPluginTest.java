package dev.caldera.plugins.pdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PdbPluginTest {

  private final FakeSession session = new FakeSession();
  private final List<PodDisruptionBudget> budgets = new ArrayList<>();

  private void budget(
      String ns, String name, LabelSelector selector, int allowed, String... disrupted) {
    budgets.add(
        new PodDisruptionBudget(ObjectMeta.named(ns, name), selector, allowed, Set.of(disrupted)));
  }

  private static LabelSelector app(String app) {
    return new LabelSelector(Map.of("app", app), null);
  }

  private static FakeTask pod(String key, String... labels) {
    FakeTask t = new FakeTask(key);
    for (int i = 0; i < labels.length; i += 2) {
      t.label(labels[i], labels[i + 1]);
    }
    return t;
  }

  private RecordingExtensions open() {
    session.cluster(new ClusterInfo(null, budgets, null, null, null));
    return RecordingExtensions.open(
        new PdbPluginFactory().create(PluginArguments.empty("pdb")), session);
  }

  private List<TaskInfo> victims(List<? extends TaskInfo> candidates) {
    return open().get(ExtensionPoint.VICTIM_TASKS).select(new ArrayList<>(candidates));
  }

  @Test
  void factory_isNamedPdb() {
    assertThat(new PdbPluginFactory().name()).isEqualTo("pdb");
    assertThat(new PdbPluginFactory().create(PluginArguments.empty("pdb")).name()).isEqualTo("pdb");
  }

  @Test
  void registersVictimTasksReclaimableAndPreemptable() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.VICTIM_TASKS, ExtensionPoint.RECLAIMABLE, ExtensionPoint.PREEMPTABLE);
  }

  @Test
  void filter_countsDownAcrossAllCandidatesOfOneCall() {
    budget("ns", "web", app("web"), 1);
    FakeTask w0 = pod("ns/w0", "app", "web");
    FakeTask w1 = pod("ns/w1", "app", "web");
    FakeTask db = pod("ns/db", "app", "db");

    assertThat(victims(List.of(w0, w1, db))).containsExactly(w0, db);
  }

  @Test
  void filter_startsAfreshOnEveryCall() {
    budget("ns", "web", app("web"), 1);
    FakeTask w0 = pod("ns/w0", "app", "web");
    FakeTask w1 = pod("ns/w1", "app", "web");
    RecordingExtensions ext = open();

    assertThat(ext.get(ExtensionPoint.VICTIM_TASKS).select(List.of(w0))).containsExactly(w0);
    assertThat(ext.get(ExtensionPoint.VICTIM_TASKS).select(List.of(w1))).containsExactly(w1);
  }

  @Test
  void filter_dropsPodsWithoutLabelsEvenWithoutBudgets() {
    FakeTask bare = pod("ns/bare");
    FakeTask labelled = pod("ns/l", "x", "y");

    assertThat(victims(List.of(bare, labelled))).containsExactly(labelled);
  }

  @Test
  void filter_ignoresEmptyNullAndInvalidSelectors() {
    budget("ns", "empty", new LabelSelector(null, null), 0);
    budget("ns", "null", null, 0);
    budget(
        "ns",
        "in-without-values",
        new LabelSelector(null, List.of(new LabelSelectorRequirement("app", "NotIn", List.of()))),
        0);
    budget(
        "ns",
        "exists-with-values",
        new LabelSelector(
            null, List.of(new LabelSelectorRequirement("app", "Exists", List.of("web")))),
        0);
    budget(
        "ns",
        "bad-operator",
        new LabelSelector(null, List.of(new LabelSelectorRequirement("app", "Gt", List.of("1")))),
        0);
    FakeTask web = pod("ns/w", "app", "web");

    assertThat(victims(List.of(web))).containsExactly(web);
  }

  @Test
  void filter_matchesExpressions() {
    budget(
        "ns",
        "tiers",
        new LabelSelector(
            null, List.of(new LabelSelectorRequirement("tier", "In", List.of("front", "back")))),
        0);
    FakeTask front = pod("ns/f", "tier", "front");
    FakeTask other = pod("ns/o", "tier", "batch");

    assertThat(victims(List.of(front, other))).containsExactly(other);
  }

  @Test
  void filter_doesNotCountPodsTheBudgetAlreadyListsAsDisrupted() {
    budget("ns", "web", app("web"), 1, "w0");
    FakeTask w0 = pod("ns/w0", "app", "web");
    FakeTask w1 = pod("ns/w1", "app", "web");
    FakeTask w2 = pod("ns/w2", "app", "web");

    assertThat(victims(List.of(w0, w1, w2))).containsExactly(w0, w1);
  }

  @Test
  void filter_appliesOnlyBudgetsOfThePodsNamespace() {
    budget("other", "web", app("web"), 0);
    FakeTask web = pod("ns/w", "app", "web");

    assertThat(victims(List.of(web))).containsExactly(web);
  }

  @Test
  void filter_chargesEveryMatchingBudgetEvenWhenOneIsViolated() {
    budget("ns", "strict", app("web"), 0);
    budget("ns", "loose", new LabelSelector(Map.of("team", "a"), null), 1);
    FakeTask both = pod("ns/both", "app", "web", "team", "a");
    FakeTask teamOnly = pod("ns/team", "team", "a");

    // both violates strict but still uses loose's only disruption, so teamOnly violates loose
    assertThat(victims(List.of(both, teamOnly))).isEmpty();
    assertThat(victims(List.of(teamOnly, both))).containsExactly(teamOnly);
  }

  @Test
  void preemptableAndReclaimable_permitTheFilteredCandidates() {
    budget("ns", "web", app("web"), 0);
    FakeTask web = pod("ns/w", "app", "web");
    FakeTask db = pod("ns/db", "app", "db");
    FakeTask preemptor = pod("ns/p", "app", "x");
    RecordingExtensions ext = open();

    Victims preempt = ext.get(ExtensionPoint.PREEMPTABLE).select(preemptor, List.of(web, db));
    Victims reclaim = ext.get(ExtensionPoint.RECLAIMABLE).select(preemptor, List.of(web, db));

    assertThat(preempt.vote()).isEqualTo(Vote.PERMIT);
    assertThat(preempt.tasks()).containsExactly(db);
    assertThat(reclaim.vote()).isEqualTo(Vote.PERMIT);
    assertThat(reclaim.tasks()).containsExactly(db);
  }

  @Test
  void preemptable_permitsAnEmptyListWhenEveryCandidateIsProtected() {
    budget("ns", "web", app("web"), 0);
    FakeTask web = pod("ns/w", "app", "web");

    Victims v = open().get(ExtensionPoint.PREEMPTABLE).select(pod("ns/p", "a", "b"), List.of(web));

    assertThat(v.tasks()).isEmpty();
    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
  }
}
