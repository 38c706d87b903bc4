package dev.caldera.api.model;

/** A weighted preferred pod affinity term. */
public record WeightedPodAffinityTerm(int weight, PodAffinityTerm term) {}
