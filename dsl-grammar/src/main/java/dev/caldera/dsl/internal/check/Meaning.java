package dev.caldera.dsl.internal.check;

import dev.caldera.dsl.internal.lang.Entity;
import dev.caldera.dsl.internal.lang.Type;
import dev.caldera.support.resource.Resource;

/** What the checker found an expression to mean, for the compiler. */
public sealed interface Meaning {

  /** The expression's type. */
  Type type();

  /** The subject of a classify block, resolved to a slot when the block is compiled. */
  int SELF = -1;

  /** An object: a root such as {@code reclaimee}, or what it leads to ({@code reclaimee.queue}). */
  record ObjectRef(Type type, Entity<?> entity, int slot) implements Meaning {}

  /** An attribute value of an object. */
  record Attribute(Type type, Entity<?> entity, int slot, String name) implements Meaning {}

  /** The class of a subject under a classifier ({@code reclaimee.service}). */
  record ClassOf(Type type, int slot, int classifier) implements Meaning {}

  /** One dimension of a resource vector, divided by {@code scale} to plain units. */
  record Dimension(Type type, int dim, double scale) implements Meaning {}

  /** A string constant (a literal, a symbol, or a bare name used as a string). */
  record TextValue(Type type, String value) implements Meaning {}

  /** A number constant; durations in milliseconds, quantities in plain units. */
  record NumberValue(Type type, double value) implements Meaning {}

  /** A resource literal, in internal units. */
  record VectorValue(Type type, Resource value) implements Meaning {}

  /** Anything else: the type is all the compiler needs. */
  record Plain(Type type) implements Meaning {}
}
