package dev.caldera.dsl.internal.tree;

/** A class name where it is written. */
public record ClassName(String name, Span span) {}
