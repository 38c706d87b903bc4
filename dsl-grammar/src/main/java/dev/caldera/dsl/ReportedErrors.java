package dev.caldera.dsl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One client's memory of the policy errors it reported, so that each erroneous text of a file is
 * reported once while it stays: the {@code policy} plugin reports the errors of the texts the loop
 * did not refuse before, {@code capacity-card} those of the policy it names. Thread-safe.
 */
public final class ReportedErrors {

  private record Key(String file, String text) {
    static Key of(CompileResult r) {
      return new Key(r.fileName(), r.source());
    }
  }

  private final Set<Key> reported = new HashSet<>();
  private final Map<String, Key> checked = new HashMap<>();

  /**
   * Remembers a text the caller checked (and reported, when it has errors) outside a session; it is
   * not reported again while it is the file's last checked text.
   */
  public synchronized void checked(CompileResult result) {
    Key key = Key.of(result);
    checked.put(result.fileName(), key);
    if (!result.ok()) {
      reported.add(key);
    }
  }

  /**
   * Of {@code errors}, the errors a session finds now, those not reported before, in the same
   * order; from now on they count as reported. A text neither among {@code errors} nor last checked
   * is forgotten, so it is reported again if it comes back.
   */
  public synchronized List<CompileResult> firstReports(List<CompileResult> errors) {
    Set<Key> kept = new HashSet<>(checked.values());
    for (CompileResult r : errors) {
      kept.add(Key.of(r));
    }
    reported.retainAll(kept);
    List<CompileResult> first = new ArrayList<>();
    for (CompileResult r : errors) {
      if (reported.add(Key.of(r))) {
        first.add(r);
      }
    }
    return first;
  }
}
