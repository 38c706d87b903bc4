package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The eviction rules' conf keys: defaults, where they are read from, and bad values. */
class EvictionRulesTest {

  private static EvictionRules rules(String configurations) throws ConfException {
    return EvictionRules.of(
        SchedulerConf.parse(
            "actions: \"enqueue, allocate, preempt, reclaim\"\n"
                + "tiers:\n- plugins: [{name: gang}]\n"
                + configurations,
            "test.conf"));
  }

  @Test
  void defaults_holdThreeSessions_noBudget_noBackoff() throws Exception {
    EvictionRules r = rules("");
    assertThat(r.holdSessions()).isEqualTo(3);
    assertThat(r.budget()).isNull();
    assertThat(r.backoff()).isEqualTo(Duration.ZERO);
  }

  @Test
  void keys_areReadFromReclaim_elseFromPreempt() throws Exception {
    EvictionRules r =
        rules(
            "configurations:\n"
                + "- {name: preempt, arguments: {evictionBudget: \"5/1h\", holdSessions: 1}}\n"
                + "- {name: reclaim, arguments: {evictionBudget: \"2/30m\", reclaimBackoff: 10m}}\n");
    assertThat(r.budget().evictions()).isEqualTo(2);
    assertThat(r.budget().window()).isEqualTo(Duration.ofMinutes(30));
    assertThat(r.backoff()).isEqualTo(Duration.ofMinutes(10));
    assertThat(r.holdSessions()).isEqualTo(1);
  }

  @Test
  void badValues_failNamingActionKeyAndWhatWasExpected() {
    assertThatThrownBy(
            () ->
                rules(
                    "configurations:\n"
                        + "- {name: reclaim, arguments: {evictionBudget: \"2 per hour\","
                        + " reclaimBackoff: soon, holdSessions: -1}}\n"))
        .isInstanceOf(ConfException.class)
        .hasMessageContaining(
            "configurations reclaim evictionBudget: expected N/DURATION such as 3/1h, got \"2 per"
                + " hour\"")
        .hasMessageContaining(
            "configurations reclaim reclaimBackoff: expected a duration such as 10m, got \"soon\"")
        .hasMessageContaining(
            "configurations reclaim holdSessions: expected a number of sessions (0 or more), got"
                + " -1");
  }

  @Test
  void budget_needsAPositiveWindow() {
    assertThatThrownBy(() -> EvictionRules.parseBudget("3/0s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected N/DURATION such as 3/1h, got \"3/0s\"");
    assertThat(EvictionRules.parseBudget(" 0/1h ").evictions()).isZero();
  }
}
