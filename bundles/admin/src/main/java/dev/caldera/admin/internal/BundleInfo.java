package dev.caldera.admin.internal;

/**
 * A bundle as the admin API lists it.
 *
 * @param state INSTALLED, RESOLVED, STARTING, STOPPING, ACTIVE or UNINSTALLED
 * @param problem why it does not run (unresolved requirements), or null
 */
public record BundleInfo(
    long id, String symbolicName, String version, String state, String location, String problem) {}
