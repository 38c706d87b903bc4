package dev.caldera.api.model;

/** A weighted preferred node selector term. */
public record PreferredSchedulingTerm(int weight, NodeSelectorTerm preference) {}
