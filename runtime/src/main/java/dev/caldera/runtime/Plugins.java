package dev.caldera.runtime;

import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import java.util.ServiceConfigurationError;

/** The plugin registry of the command line: every factory and action found on the class path. */
final class Plugins {

  private Plugins() {}

  /**
   * Loads the registry.
   *
   * @throws IllegalStateException if a jar lists a plugin or action it does not hold (a broken or
   *     mismatched jar in {@code lib/})
   */
  static PluginRegistry registry() {
    try {
      return new ServiceLoaderPluginRegistry();
    } catch (ServiceConfigurationError e) {
      throw new IllegalStateException("cannot load the plugins: " + e.getMessage(), e);
    }
  }
}
