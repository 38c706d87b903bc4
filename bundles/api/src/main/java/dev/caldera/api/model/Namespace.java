package dev.caldera.api.model;

/** A Namespace (its labels matter for pod affinity namespace selectors). */
public record Namespace(ObjectMeta metadata) {}
