package dev.caldera.plugins.policy;

import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyCompiler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one owner of policy compilation in a scheduler: the policies known across sessions and the
 * checks of the policies directory. Each distinct file text is compiled once, whether the loop
 * checks it first ({@link #check}) or a session's snapshot brings it ({@link #refresh}); the
 * compiled policy is what sessions run. A file whose new text has errors keeps its last good policy
 * running; a file that disappeared takes its policy with it. An error is reported once: by the loop
 * when it checked the text ({@code PolicyRejected}), else by the session that met it ({@code
 * PolicyError}). Thread-safe; compilation runs outside the lock.
 */
final class PolicyLibrary {

  /**
   * What a session sees: the usable policies by name, the errors not reported before, and every
   * file whose current text has errors.
   */
  record Snapshot(
      Map<String, Policy> policies, List<CompileResult> newErrors, List<CompileResult> errors) {

    /**
     * For a policy that is not usable: {@code " (...)"} with the first error of the files that
     * declare it or are named after it, else empty.
     */
    String errorsOf(String policy) {
      for (CompileResult r : errors) {
        if (policy.equals(r.policyName()) || r.fileName().equals(policy + ".policy")) {
          return " (" + r.diagnostics().get(0).headline() + ")";
        }
      }
      return "";
    }
  }

  private record Key(String file, String text) {}

  private final Map<Key, CompileResult> compiled = new HashMap<>();
  private final Set<Key> reported = new HashSet<>();
  private final Map<String, Key> checked = new HashMap<>();
  private final Map<String, Policy> lastGood = new HashMap<>();
  private final AtomicInteger compilations = new AtomicInteger();

  /**
   * Checks a file's text before the loop hands it to sessions: the compile result sessions will use
   * for that text. Its errors count as reported (the loop reports them).
   */
  CompileResult check(String fileName, String text) {
    Key key = new Key(fileName, text);
    CompileResult r = compiled(key);
    synchronized (this) {
      checked.put(fileName, key);
      if (!r.ok()) {
        reported.add(key);
      }
    }
    return r;
  }

  /** The compile result of {@code key}, compiled now (outside the lock) if it is not known. */
  private CompileResult compiled(Key key) {
    synchronized (this) {
      CompileResult known = compiled.get(key);
      if (known != null) {
        return known;
      }
    }
    CompileResult fresh = compile(key);
    synchronized (this) {
      CompileResult raced = compiled.putIfAbsent(key, fresh);
      return raced != null ? raced : fresh;
    }
  }

  /** Compiles what changed in {@code sources} and tells which policies the session may use. */
  Snapshot refresh(Map<String, String> sources) {
    List<CompileResult> results = new ArrayList<>();
    Set<Key> present = new HashSet<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Key key = new Key(e.getKey(), e.getValue());
      present.add(key);
      results.add(compiled(key));
    }
    synchronized (this) {
      return refreshed(sources, present, results);
    }
  }

  private Snapshot refreshed(
      Map<String, String> sources, Set<Key> present, List<CompileResult> results) {
    Set<Key> kept = new HashSet<>(present);
    kept.addAll(checked.values());
    compiled.keySet().retainAll(kept);
    reported.retainAll(kept);
    results = PolicyCompiler.withUniqueNames(results);

    Map<String, Policy> policies = new HashMap<>();
    List<CompileResult> newErrors = new ArrayList<>();
    List<CompileResult> errors = new ArrayList<>();
    for (CompileResult r : results) {
      if (r.ok()) {
        Policy p = r.policy();
        policies.put(p.name(), p);
        lastGood.values().removeIf(old -> old.fileName().equals(r.fileName()));
        lastGood.put(p.name(), p);
      } else {
        errors.add(r);
        if (reported.add(new Key(r.fileName(), r.source()))) {
          newErrors.add(r);
        }
      }
    }
    lastGood.values().removeIf(p -> !sources.containsKey(p.fileName()));
    for (Policy p : lastGood.values()) {
      policies.putIfAbsent(p.name(), p);
    }
    return new Snapshot(Map.copyOf(policies), List.copyOf(newErrors), List.copyOf(errors));
  }

  /** How many texts were compiled so far (each distinct text once while it stays present). */
  int compilations() {
    return compilations.get();
  }

  private CompileResult compile(Key key) {
    compilations.incrementAndGet();
    return PolicyCompiler.compile(key.file(), key.text());
  }
}
