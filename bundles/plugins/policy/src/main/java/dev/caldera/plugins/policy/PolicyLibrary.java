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

/**
 * The policies known across sessions. Sources arrive with each session's snapshot (file name →
 * text); each distinct text is compiled once. A file whose new text has errors keeps its last good
 * policy running; a file that disappeared takes its policy with it. Thread-safe.
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
  private final Map<String, Policy> lastGood = new HashMap<>();
  private int compilations;

  /** Compiles what changed in {@code sources} and tells which policies the session may use. */
  synchronized Snapshot refresh(Map<String, String> sources) {
    List<CompileResult> results = new ArrayList<>();
    Set<Key> present = new HashSet<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Key key = new Key(e.getKey(), e.getValue());
      present.add(key);
      results.add(compiled.computeIfAbsent(key, this::compile));
    }
    compiled.keySet().retainAll(present);
    reported.retainAll(present);
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
  synchronized int compilations() {
    return compilations;
  }

  private CompileResult compile(Key key) {
    compilations++;
    return PolicyCompiler.compile(key.file(), key.text());
  }
}
