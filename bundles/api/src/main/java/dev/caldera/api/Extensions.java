package dev.caldera.api;

import dev.caldera.api.extension.NodeLocality;
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

  /**
   * Registers {@code fn} for {@code point} with its {@link NodeLocality}: for which tasks its
   * answer on a node depends only on the task's key and that node's state. Only for {@link
   * ExtensionPoint#PREDICATE}, {@link ExtensionPoint#NODE_ORDER} and {@link
   * ExtensionPoint#BATCH_NODE_ORDER}; a framework that does not reuse answers registers {@code fn}
   * alone.
   *
   * @throws IllegalArgumentException for another extension point
   */
  default <T> void add(ExtensionPoint<T> point, T fn, NodeLocality locality) {
    if (point != ExtensionPoint.PREDICATE
        && point != ExtensionPoint.NODE_ORDER
        && point != ExtensionPoint.BATCH_NODE_ORDER) {
      throw new IllegalArgumentException("a node locality is for per-node functions, not " + point);
    }
    add(point, fn);
  }
}
