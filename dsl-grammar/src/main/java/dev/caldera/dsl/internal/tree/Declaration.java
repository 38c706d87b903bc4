package dev.caldera.dsl.internal.tree;

/** A top-level block of a policy. */
public sealed interface Declaration permits Classify, ReclaimBlock, PreemptiveBlock {

  /** Where the block starts (its keyword). */
  Span span();

  /** Where the block ends (its closing brace). */
  Span end();
}
