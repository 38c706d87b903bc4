package dev.caldera.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Where a plugin registers its functions when a session opens. Bound to the plugin being opened:
 * the framework records which plugin registered each function, so that the conf's per-plugin enable
 * flags apply.
 */
@ProviderType
public interface Extensions {

  /**
   * Registers {@code fn} for {@code point}. A plugin may register several event handlers and
   * victim-task functions; for other points a later registration replaces an earlier one.
   */
  <T> void add(ExtensionPoint<T> point, T fn);
}
