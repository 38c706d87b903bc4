package dev.caldera.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Makes plugin instances from conf arguments. Published as an OSGi service with the property
 * {@value #NAME_PROPERTY} set to the plugin name, and listed in {@code
 * META-INF/services/dev.caldera.api.PluginFactory} for use without OSGi.
 */
@ConsumerType
public interface PluginFactory {

  /** The service property that names the plugin. */
  String NAME_PROPERTY = "caldera.plugin";

  /** The registration name, e.g. {@code gang}. */
  String name();

  /**
   * Validates the arguments and makes a plugin; the same arguments give an equivalent plugin.
   *
   * @throws PluginArgumentException naming the key and what was expected
   */
  Plugin create(PluginArguments arguments);
}
