package dev.caldera.plugins.capacitycard;

import dev.caldera.api.PluginArguments;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import java.util.Map;

/** Shared fixtures: card nodes, plugin set-up and event lookups. */
final class Fixtures {

  private Fixtures() {}

  /** A node with {@code count} whole cards of {@code product} on {@code nvidia.com/gpu}. */
  static FakeNode gpuNode(FakeSession s, String name, String product, int count) {
    return s.addNode(name)
        .label("nvidia.com/gpu.product", product)
        .label("nvidia.com/gpu.count", Integer.toString(count))
        .label("nvidia.com/gpu.memory", "143771")
        .allocatable(
            "cpu",
            "64",
            "memory",
            "512Gi",
            "pods",
            "110",
            "nvidia.com/gpu",
            Integer.toString(count));
  }

  /** The plugin with these conf arguments. */
  static CapacityCardPlugin plugin(Map<String, Object> arguments) {
    return new CapacityCardPlugin(
        CardArguments.parse(new PluginArguments(CapacityCardPlugin.NAME, arguments, false)));
  }

  /** Opens a plugin with the given arguments on {@code s}. */
  static RecordingExtensions open(FakeSession s, Map<String, Object> arguments) {
    return RecordingExtensions.open(plugin(arguments), s);
  }

  /** The messages of the events recorded on {@code key}. */
  static List<String> messages(FakeSession s, String key) {
    return s.events().stream()
        .filter(e -> e.key().equals(key))
        .map(RecordedEvent::message)
        .toList();
  }
}
