package dev.caldera.api.model;

/** A PriorityClass. */
public record PriorityClass(String name, int value, boolean globalDefault) {}
