package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code caldera policy explain --snapshot}: a decision on the objects of a scenario file. */
class PolicyExplainSnapshotTest {

  /** Relative to the module: the project's own files, present in any clone. */
  private static final String SCENARIO =
      Path.of(
              "../itests/src/test/scenarios/policy/policy-tidal-unknown-reclaimer-takes-training.yaml")
          .toString();

  private static final String TIDAL = Path.of("../policies/tidal.policy").toString();

  private final CommandRun cli = new CommandRun();

  private int explain(String reclaimer, String candidate) {
    return cli.run(
        "policy",
        "explain",
        TIDAL,
        "--snapshot",
        SCENARIO,
        "--reclaimer",
        reclaimer,
        "--candidate",
        candidate);
  }

  @Test
  void explainsTheDecisionOnThePodsOfTheSnapshot_withHowEachWasClassified() {
    int exit = explain("ai/db-0", "ai/train-1");

    assertThat(exit).as(cli.err()).isZero();
    assertThat(cli.out().lines().findFirst().orElseThrow())
        .startsWith("allow by ")
        .endsWith("tidal.policy:18: any may reclaim training");
    assertThat(cli.out())
        .contains("reclaimer service = unknown")
        .contains("reclaimee service = training (from owner.kind");
    // Each attribute the classifiers read, with the snapshot's value: the StatefulSet owner of
    // db-0 maps to no service, train-1's Job owner to training; neither pod group is annotated.
    assertThat(cli.out())
        .contains(
            "\n  read:\n",
            "    reclaimer podgroup.annotations[\"volcano.sh/service.type\"] = (no value)\n",
            "    reclaimer owner.kind = \"StatefulSet\"\n",
            "    reclaimee owner.kind = \"Job\"\n");
  }

  @Test
  void theOtherWayRound_trainingNeverReclaims() {
    int exit = explain("ai/train-1", "ai/db-0");

    assertThat(exit).as(cli.err()).isZero();
    assertThat(cli.out()).startsWith("deny by ").contains("training may not reclaim any");
  }

  @Test
  void aPodNotInTheSnapshot_isAUsageErrorNamingIt() {
    int exit = explain("ai/nope", "ai/train-1");

    assertThat(exit).isEqualTo(2);
    assertThat(cli.err()).contains("--reclaimer: no pod ai/nope of this scheduler in");
  }
}
