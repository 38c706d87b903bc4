package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caldera diff} and {@code caldera simulate --conf/--policies} on a scenario of the
 * project's corpus where the shipped tidal policy lets an unknown service reclaim a training pod.
 */
class DiffCommandTest {

  /** Relative to the module: the project's own files, present in any clone. */
  private static final Path SCENARIO =
      Path.of(
          "../itests/src/test/scenarios/policy/policy-tidal-unknown-reclaimer-takes-training.yaml");

  private static final Path SHIPPED_POLICIES = Path.of("../policies");

  @TempDir Path dir;

  private final CommandRun cli = new CommandRun();

  private int run(String... args) {
    return cli.run(args);
  }

  private String out() {
    return cli.out();
  }

  private String err() {
    return cli.err();
  }

  /** Tidal where only inference may reclaim training: the unknown service may no longer. */
  private Path variantPolicies() throws IOException {
    Path variant = Files.createDirectories(dir.resolve("variant"));
    String tidal = Files.readString(SHIPPED_POLICIES.resolve("tidal.policy"));
    assertThat(tidal).contains("  any may reclaim training\n");
    Files.writeString(
        variant.resolve("tidal.policy"),
        tidal.replace("  any may reclaim training\n", "  inference may reclaim training\n"));
    return variant;
  }

  @Test
  void aStricterPolicy_reportsExactlyTheEvictionItRemoves_andExitsOne() throws IOException {
    int exit =
        run(
            "diff",
            "--base-policies",
            SHIPPED_POLICIES.toString(),
            "--policies",
            variantPolicies().toString(),
            SCENARIO.toString());

    assertThat(exit).as(err()).isEqualTo(1);
    assertThat(out())
        .contains(
            "evictions removed:\n  ai/train-1 (reclaim, for ai/db-0)\n"
                + "    before: PolicyEvicted: policy decision for reclaimer ai/db-0: allowed by"
                + " tidal.policy:18 (any may reclaim training)\n"
                + "    after:  PolicySpared: policy decision for reclaimer ai/db-0: denied by"
                + " tidal.policy:19 (otherwise deny)\n")
        .doesNotContain("evictions added:")
        .contains("bound differently:\n  ai/db-0: gpu-1 -> (not bound)\n")
        .contains("  q-online nvidia.com/gpu: 4 -> 0\n");
  }

  @Test
  void theOtherWayRound_theEvictionIsAdded_asJson() throws IOException {
    int exit =
        run(
            "diff",
            "--output",
            "json",
            "--base-policies",
            variantPolicies().toString(),
            "--policies",
            SHIPPED_POLICIES.toString(),
            SCENARIO.toString());

    assertThat(exit).as(err()).isEqualTo(1);
    JsonNode diff = new ObjectMapper().readTree(out());
    assertThat(diff.get("changed").asBoolean()).isTrue();
    assertThat(diff.get("evictionsRemoved")).isEmpty();
    assertThat(diff.get("evictionsAdded")).hasSize(1);
    assertThat(diff.get("evictionsAdded").get(0).get("pod").asText()).isEqualTo("ai/train-1");
    assertThat(diff.get("placements").get(0).get("after").asText()).isEqualTo("gpu-1");
  }

  @Test
  void theSamePolicies_changeNothing_andExitZero() {
    int exit =
        run(
            "diff",
            "--base-policies",
            SHIPPED_POLICIES.toString(),
            "--policies",
            SHIPPED_POLICIES.toString(),
            SCENARIO.toString());

    assertThat(exit).as(err()).isZero();
    assertThat(out()).isEqualTo("no changes\n");
  }

  @Test
  void aConfWithoutReclaim_removesTheEviction() throws IOException {
    Path conf =
        Files.writeString(
            dir.resolve("no-reclaim.conf"),
            """
            actions: "enqueue, allocate"
            tiers:
            - plugins: [{name: priority}, {name: gang}, {name: conformance}]
            - plugins: [{name: predicates}, {name: capacity}]
            """);

    int exit =
        run(
            "diff",
            "--base-policies",
            SHIPPED_POLICIES.toString(),
            "--conf",
            conf.toString(),
            SCENARIO.toString());

    assertThat(exit).as(err()).isEqualTo(1);
    assertThat(out()).contains("evictions removed:\n  ai/train-1 (reclaim, for ai/db-0)\n");
  }

  @Test
  void nothingToCompare_isAUsageError() {
    assertThat(run("diff", SCENARIO.toString())).isEqualTo(2);
    assertThat(err()).contains("Nothing to compare");
  }

  @Test
  void aPoliciesOptionThatIsNoDirectory_isAUsageError() {
    assertThat(run("diff", "--policies", SCENARIO.toString(), SCENARIO.toString())).isEqualTo(2);
    assertThat(err()).contains("--policies expects a directory of .policy files");
  }

  @Test
  void aMalformedConf_namesTheFile_andIsAUsageError() throws IOException {
    Path conf = Files.writeString(dir.resolve("bad.conf"), "actions: [1, 2\n");
    assertThat(run("diff", "--conf", conf.toString(), SCENARIO.toString())).isEqualTo(2);
    assertThat(err()).contains(conf.toString());
  }

  @Test
  void simulateWithPolicies_runsAScenarioThatNamesAShippedPolicy() {
    // Without them the policy plugin refuses the conf: no .policy file declares tidal.
    assertThat(run("simulate", SCENARIO.toString())).isEqualTo(1);
    assertThat(err()).contains("policy \"tidal\" is named in the arguments");

    cli.reset();
    assertThat(run("simulate", "--policies", SHIPPED_POLICIES.toString(), SCENARIO.toString()))
        .isZero();
    assertThat(out()).contains("evict     ai/train-1 by reclaim for ai/db-0");
  }
}
