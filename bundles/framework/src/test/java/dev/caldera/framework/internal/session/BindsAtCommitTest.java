package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.info.JobInfo;
import dev.caldera.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BindsAtCommitTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: a}]
      """;

  private final List<SessionResult.Bind> handedOver = new ArrayList<>();

  private SessionProbe probe() {
    return new SessionProbe()
        .plugin("a", (s, x) -> x.add(ExtensionPoint.JOB_READY, JobInfo::isReady))
        .handingOverBindsTo(handedOver::add)
        .node("n1", "8");
  }

  private static List<String> placed(List<SessionResult.Bind> binds) {
    return binds.stream().map(b -> b.pod() + "@" + b.node()).toList();
  }

  @Test
  void aReadyGang_isHandedOverAtItsCommit_beforeTheSessionGoesOn() throws Exception {
    List<String> seenBeforeTheNextGang = new ArrayList<>();
    SessionResult result =
        probe()
            .job("first", 2, "f-1", "f-2")
            .job("second", 1, "s-1")
            .run(
                CONF,
                ssn -> {
                  var stmt = ssn.newStatement();
                  ssn.job("ns/first").tasks().forEach(t -> stmt.allocate(t, ssn.node("n1")));
                  assertThat(handedOver).as("nothing before the commit").isEmpty();
                  stmt.commit();
                  seenBeforeTheNextGang.addAll(placed(handedOver));
                  var next = ssn.newStatement();
                  next.allocate(ssn.job("ns/second").tasks().get(0), ssn.node("n1"));
                  next.commit();
                });

    assertThat(seenBeforeTheNextGang).containsExactly("ns/f-1@n1", "ns/f-2@n1");
    assertThat(placed(handedOver)).containsExactly("ns/f-1@n1", "ns/f-2@n1", "ns/s-1@n1");
    assertThat(result.binds()).as("the result keeps them, in the same order").isEqualTo(handedOver);
  }

  @Test
  void aDiscardedStatement_orAGangAllocatedBelowItsMinimum_isNeverHandedOver() throws Exception {
    SessionResult result =
        probe()
            .job("discarded", 1, "d-1")
            .job("short", 3, "a-1", "a-2", "a-3")
            .run(
                CONF,
                ssn -> {
                  var stmt = ssn.newStatement();
                  stmt.allocate(ssn.job("ns/discarded").tasks().get(0), ssn.node("n1"));
                  stmt.discard();
                  // The session's own allocation binds a job only once it is ready.
                  ssn.allocate(ssn.job("ns/short").tasks().get(0), ssn.node("n1"));
                  ssn.allocate(ssn.job("ns/short").tasks().get(1), ssn.node("n1"));
                });

    assertThat(handedOver).isEmpty();
    assertThat(result.binds()).isEmpty();
  }

  @Test
  void aGangAllocatedByTheSession_isHandedOverWhenItsLastTaskMakesItReady() throws Exception {
    List<String> seenBeforeTheLast = new ArrayList<>();
    probe()
        .job("gang", 2, "g-1", "g-2")
        .run(
            CONF,
            ssn -> {
              ssn.allocate(ssn.job("ns/gang").tasks().get(0), ssn.node("n1"));
              seenBeforeTheLast.addAll(placed(handedOver));
              ssn.allocate(ssn.job("ns/gang").tasks().get(1), ssn.node("n1"));
            });

    assertThat(seenBeforeTheLast).isEmpty();
    assertThat(placed(handedOver)).containsExactlyInAnyOrder("ns/g-1@n1", "ns/g-2@n1");
  }
}
