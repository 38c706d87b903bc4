package dev.caldera.api.model;

/** An owner reference: the controller that made an object. */
public record OwnerReference(
    String apiVersion, String kind, String name, String uid, boolean controller) {}
