package dev.caldera.framework.loop;

/**
 * How many sessions a plugin served from one bundle.
 *
 * @param origin the bundle's symbolic name and version (or a class name outside OSGi)
 */
public record PluginUse(String plugin, String origin, long sessions) {}
