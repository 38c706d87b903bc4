package dev.caldera.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The compiled policies a scheduler keeps across sessions, and each client's reported errors. */
class PolicyLibraryTest {

  private static final String OPEN =
      "policy open\nreclaim {\n  any may reclaim any when reclaimee.queue.reclaimable\n"
          + "  otherwise deny\n}\n";
  private static final String OPEN_EDITED = OPEN.replace("reclaimable", "reclaimable or true");
  private static final String OPEN_BROKEN = OPEN.replace("reclaim any", "reclaim nobody");

  private final PolicyLibrary library = PolicyLibrary.create();

  @Test
  void refresh_compilesEachTextOnceWhileItIsPresent() {
    library.refresh(Map.of("open.policy", OPEN));
    library.refresh(Map.of("open.policy", OPEN));
    library.refresh(Map.of());
    library.refresh(Map.of("open.policy", OPEN));

    assertThat(library.compilations()).as("forgotten while absent").isEqualTo(2);
  }

  @Test
  void aCheckedText_isNotCompiledAgainBySessions() {
    CompileResult checked = library.check("open.policy", OPEN);

    PolicyLibrary.Snapshot s = library.refresh(Map.of("open.policy", OPEN));

    assertThat(s.policies().get("open")).isSameAs(checked.policy());
    assertThat(library.compilations()).isEqualTo(1);
  }

  @Test
  void aBadEdit_keepsTheLastGoodPolicyWhileTheFileExists() {
    Policy good = library.refresh(Map.of("open.policy", OPEN)).policies().get("open");

    PolicyLibrary.Snapshot broken = library.refresh(Map.of("open.policy", OPEN_BROKEN));
    PolicyLibrary.Snapshot gone = library.refresh(Map.of());

    assertThat(broken.policies()).containsEntry("open", good);
    assertThat(broken.errors())
        .singleElement()
        .extracting(CompileResult::fileName)
        .isEqualTo("open.policy");
    assertThat(broken.errorsOf("open")).startsWith(" (open.policy:3:");
    assertThat(gone.policies()).isEmpty();
  }

  @Test
  void aGoodEdit_replacesThePolicy() {
    Policy before = library.refresh(Map.of("open.policy", OPEN)).policies().get("open");

    Policy edited = library.refresh(Map.of("open.policy", OPEN_EDITED)).policies().get("open");

    assertThat(edited).isNotNull().isNotSameAs(before);
  }

  @Test
  void aShippedPolicy_staysCompiledWhateverTheSessionsBring() {
    CompileResult first = library.compileShipped("tidal.policy", OPEN.replace("open", "tidal"));
    library.refresh(Map.of("open.policy", OPEN));
    library.refresh(Map.of());

    CompileResult again = library.compileShipped("tidal.policy", OPEN.replace("open", "tidal"));

    assertThat(again).isSameAs(first);
    assertThat(library.compilations()).isEqualTo(2);
    assertThat(library.refresh(Map.of()).policies()).doesNotContainKey("tidal");
  }

  @Test
  void reportedErrors_eachTextOnceWhileItStays_perClient() {
    ReportedErrors policyPlugin = new ReportedErrors();
    ReportedErrors capacityCard = new ReportedErrors();
    List<CompileResult> errors = library.refresh(Map.of("open.policy", OPEN_BROKEN)).errors();

    assertThat(policyPlugin.firstReports(errors)).hasSize(1);
    assertThat(policyPlugin.firstReports(errors)).isEmpty();
    assertThat(capacityCard.firstReports(errors)).as("another client's memory").hasSize(1);

    policyPlugin.firstReports(List.of());
    assertThat(policyPlugin.firstReports(errors)).as("it went and came back").hasSize(1);
  }

  @Test
  void reportedErrors_aTextTheLoopCheckedAndReported_isNotReportedBySessions() {
    ReportedErrors reported = new ReportedErrors();
    reported.checked(library.check("open.policy", OPEN_BROKEN));

    reported.firstReports(List.of());
    List<CompileResult> errors = library.refresh(Map.of("open.policy", OPEN_BROKEN)).errors();

    assertThat(reported.firstReports(errors)).isEmpty();
    assertThat(library.compilations()).isEqualTo(1);
  }

  @Test
  void callersOnSeveralThreads_allGetTheOneCompiledPolicyOfAText() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Policy>> results = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        boolean checks = t % 2 == 0;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return checks
                      ? library.check("open.policy", OPEN).policy()
                      : library.refresh(Map.of("open.policy", OPEN)).policies().get("open");
                }));
      }
      start.countDown();
      Policy first = results.get(0).get();
      for (Future<Policy> f : results) {
        assertThat(f.get()).isNotNull().isSameAs(first);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
