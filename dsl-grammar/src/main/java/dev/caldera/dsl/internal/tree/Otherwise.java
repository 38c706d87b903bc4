package dev.caldera.dsl.internal.tree;

/** {@code otherwise allow|deny}, the last rule of a block. */
public record Otherwise(boolean allow, Span span) {}
