package dev.caldera.dsl.internal.check;

import dev.caldera.dsl.internal.eval.Frame;
import dev.caldera.dsl.internal.lang.Catalog;
import dev.caldera.dsl.internal.lang.Entity;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The names an expression may start from, by where it is written.
 *
 * @param where how messages name the place, e.g. {@code a reclaim rule}
 * @param classAttributes whether {@code <task>.<classifier>} reads a class (not inside classify)
 */
record Scope(String where, Map<String, Root> roots, boolean classAttributes) {

  /** A root name: an object kind and the slot of its subject. */
  record Root(Entity<?> entity, int slot) {}

  static final Scope CLASSIFY =
      new Scope(
          "a classify source",
          roots(
              "node", new Root(Catalog.NODE, Meaning.SELF),
              "owner", new Root(Catalog.OWNER, Meaning.SELF),
              "podgroup", new Root(Catalog.PODGROUP, Meaning.SELF),
              "job", new Root(Catalog.PODGROUP, Meaning.SELF),
              "queue", new Root(Catalog.QUEUE, Meaning.SELF),
              "task", new Root(Catalog.TASK, Meaning.SELF)),
          false);

  static final Scope RECLAIM =
      new Scope(
          "a reclaim rule",
          roots(
              "candidate", new Root(Catalog.TASK, Frame.OBJECT),
              "reclaimee", new Root(Catalog.TASK, Frame.OBJECT),
              "reclaimer", new Root(Catalog.TASK, Frame.SUBJECT),
              "task", new Root(Catalog.TASK, Frame.SUBJECT)),
          true);

  static final Scope PREEMPTIVE =
      new Scope(
          "a preemptive rule",
          roots(
              "queue", new Root(Catalog.QUEUE, Frame.GIVEN_QUEUE),
              "task", new Root(Catalog.TASK, Frame.SUBJECT)),
          true);

  private static Map<String, Root> roots(Object... pairs) {
    Map<String, Root> roots = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      roots.put((String) pairs[i], (Root) pairs[i + 1]);
    }
    return roots;
  }
}
