package dev.caldera.plugins.policy;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code policy} plugin. The factory keeps the compiled policies across sessions, so
 * that a session compiles only the policy texts that changed.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + PolicyPlugin.NAME)
public final class PolicyPluginFactory implements PluginFactory {

  private final PolicyLibrary library = new PolicyLibrary();

  @Override
  public String name() {
    return PolicyPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new PolicyPlugin(PolicyArguments.parse(arguments), library);
  }

  /** The shared library, for tests. */
  PolicyLibrary library() {
    return library;
  }
}
