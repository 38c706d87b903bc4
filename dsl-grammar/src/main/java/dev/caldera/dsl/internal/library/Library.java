package dev.caldera.dsl.internal.library;

import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyCompiler;
import dev.caldera.dsl.PolicyLibrary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Component;

/**
 * The {@link PolicyLibrary}: one lock over its maps, compilation outside it. In OSGi the language
 * bundle publishes one, the framework's library that the plugins share.
 */
@Component(service = PolicyLibrary.class)
public final class Library implements PolicyLibrary {

  private record Key(String file, String text) {}

  private final Map<Key, CompileResult> compiled = new HashMap<>();
  private final Map<String, Key> checked = new HashMap<>();
  private final Map<Key, CompileResult> shipped = new HashMap<>();
  private final Map<String, Policy> lastGood = new HashMap<>();
  private final AtomicInteger compilations = new AtomicInteger();

  @Override
  public CompileResult check(String fileName, String text) {
    Key key = new Key(fileName, text);
    CompileResult r = compiled(compiled, key);
    synchronized (this) {
      checked.put(fileName, key);
      // A session's refresh may have forgotten it between the compilation and the line above.
      compiled.putIfAbsent(key, r);
    }
    return r;
  }

  @Override
  public CompileResult compileShipped(String fileName, String text) {
    return compiled(shipped, new Key(fileName, text));
  }

  /** The compile result of {@code key} in {@code cache}, compiled now (outside the lock) if new. */
  private CompileResult compiled(Map<Key, CompileResult> cache, Key key) {
    synchronized (this) {
      CompileResult known = cache.get(key);
      if (known != null) {
        return known;
      }
    }
    compilations.incrementAndGet();
    CompileResult fresh = PolicyCompiler.compile(key.file(), key.text());
    synchronized (this) {
      CompileResult raced = cache.putIfAbsent(key, fresh);
      return raced != null ? raced : fresh;
    }
  }

  @Override
  public Snapshot refresh(Map<String, String> sources) {
    List<CompileResult> results = new ArrayList<>();
    Set<Key> present = new HashSet<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Key key = new Key(e.getKey(), e.getValue());
      present.add(key);
      results.add(compiled(compiled, key));
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
    results = PolicyCompiler.withUniqueNames(results);

    Map<String, Policy> policies = new HashMap<>();
    List<CompileResult> errors = new ArrayList<>();
    for (CompileResult r : results) {
      if (r.ok()) {
        Policy p = r.policy();
        policies.put(p.name(), p);
        lastGood.values().removeIf(old -> old.fileName().equals(r.fileName()));
        lastGood.put(p.name(), p);
      } else {
        errors.add(r);
      }
    }
    lastGood.values().removeIf(p -> !sources.containsKey(p.fileName()));
    for (Policy p : lastGood.values()) {
      policies.putIfAbsent(p.name(), p);
    }
    return new Snapshot(policies, errors);
  }

  @Override
  public int compilations() {
    return compilations.get();
  }
}
