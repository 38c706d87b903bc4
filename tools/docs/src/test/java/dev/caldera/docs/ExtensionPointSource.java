package dev.caldera.docs;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Plugin;
import java.util.List;

/**
 * Where the plugin pages get the extension points a plugin uses and what each point means. Today
 * {@link RecordedRegistrations}: what the plugin registers when a session opens. A table of points
 * kept by the framework can replace it without touching the pages' generator.
 */
interface ExtensionPointSource {

  /** One point a plugin registers. */
  record Registration(ExtensionPoint<?> point, int functions, boolean nodeLocal) {}

  /** The points {@code plugin} registers, in {@link ExtensionPoint#ALL}'s order. */
  List<Registration> registrations(Plugin plugin);

  /** One sentence on what a function of {@code point} decides, as Markdown. */
  String contract(ExtensionPoint<?> point);
}
