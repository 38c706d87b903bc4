package dev.caldera.api.model;

/** A pod (or pod group) condition. */
public record PodCondition(String type, String status, String reason, String message) {}
