package dev.caldera.framework.conf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The combinations of entries that silently defeat a promise, each warned naming the entries. */
class ConfLintTest {

  private static SchedulerConf conf(String yaml) throws ConfException {
    return SchedulerConf.parse(yaml, "test.conf");
  }

  @Test
  void victimPluginsWithReclaimAboveCapacity_areWarnedNamingTheEntries() throws Exception {
    // seed 003's own conf: gang and conformance in tier 1 with reclaim enabled, capacity in tier 2
    SchedulerConf c =
        conf(
            """
            actions: "enqueue, allocate, reclaim"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: conformance}]
            - plugins: [{name: predicates}, {name: capacity, enableHierarchy: true}]
            """);
    assertThat(ConfLint.warnings(c))
        .containsExactly(
            "tiers[0].plugins[1] (gang), tiers[0].plugins[2] (conformance) choose reclaim victims"
                + " in a tier above tiers[1].plugins[1] (capacity): the first tier that returns"
                + " victims decides, so victims are taken without asking capacity whether their"
                + " queue may lose them (a queue can be reclaimed below its guarantee); set"
                + " enableReclaimable: false on them or move them into the same tier");
  }

  @Test
  void victimPluginsWithReclaimDisabled_areNotWarned() throws Exception {
    SchedulerConf c =
        conf(
            """
            actions: "enqueue, allocate, reclaim"
            tiers:
            - plugins: [{name: priority}, {name: gang, enableReclaimable: false},
                        {name: conformance, enableReclaimable: false}]
            - plugins: [{name: predicates}, {name: capacity}]
            """);
    assertThat(ConfLint.warnings(c)).isEmpty();
  }

  @Test
  void withoutTheReclaimAction_victimOrderDoesNotMatter() throws Exception {
    SchedulerConf c =
        conf(
            """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: conformance}]
            - plugins: [{name: predicates}, {name: proportion}]
            """);
    assertThat(ConfLint.warnings(c)).isEmpty();
  }

  @Test
  void policyPluginBesideCapacityCardsBuiltInTidal_isWarned() throws Exception {
    SchedulerConf c =
        conf(
            """
            actions: "enqueue, allocate, backfill"
            tiers:
            - plugins: [{name: priority}, {name: gang, enableReclaimable: false}]
            - plugins:
              - {name: capacity-card}
              - {name: policy, arguments: {policies: [team]}}
            """);
    assertThat(ConfLint.warnings(c))
        .containsExactly(
            "tiers[1].plugins[1] (policy) has reclaim enabled in the tier of tiers[1].plugins[0]"
                + " (capacity-card), whose built-in tidal policy is in force (no reclaimPolicy):"
                + " the two are intersected, so the reclaim rules of tiers[1].plugins[1] (policy)"
                + " can never allow more than tidal does; give capacity-card the policy"
                + " (reclaimPolicy: NAME) or set enableReclaimable: false on one of them");
  }

  @Test
  void policyPluginBesideCapacityCardWithItsOwnReclaimPolicy_isNotWarned() throws Exception {
    SchedulerConf c =
        conf(
            """
            actions: "enqueue, allocate, reclaim"
            tiers:
            - plugins:
              - {name: capacity-card, arguments: {reclaimPolicy: custom}}
              - {name: policy, arguments: {policies: [team]}}
            """);
    assertThat(ConfLint.warnings(c)).isEmpty();
  }
}
