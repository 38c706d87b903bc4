package dev.caldera.admin.internal;

/**
 * A plugin as the admin API lists it.
 *
 * @param bundle the symbolic name of the bundle that provides it, or null when it is missing
 * @param state the bundle's state, or MISSING for a plugin the conf names that no bundle provides
 * @param sessionsServed sessions this bundle's factory served
 * @param inConf whether the conf in force names it
 */
public record PluginInfo(
    String name,
    String bundle,
    String version,
    String state,
    long sessionsServed,
    boolean inConf) {}
