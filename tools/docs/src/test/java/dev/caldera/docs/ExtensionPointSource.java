package dev.caldera.docs;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Plugin;
import java.util.List;

/**
 * Where the plugin pages get the extension points a plugin uses and what each point means: {@link
 * RecordedRegistrations}, what the plugin registers when a session opens, with each point's gates
 * from the framework's {@code ExtensionTable}.
 */
interface ExtensionPointSource {

  /** One point a plugin registers. */
  record Registration(ExtensionPoint<?> point, int functions, boolean nodeLocal) {}

  /** The points {@code plugin} registers, in {@link ExtensionPoint#ALL}'s order. */
  List<Registration> registrations(Plugin plugin);

  /** One sentence on what a function of {@code point} decides, as Markdown. */
  String contract(ExtensionPoint<?> point);

  /**
   * The conf flags of a plugin entry that gate {@code point} (any one of them on lets the plugin's
   * functions take part), as Markdown; empty when no flag gates it.
   */
  String gates(ExtensionPoint<?> point);
}
