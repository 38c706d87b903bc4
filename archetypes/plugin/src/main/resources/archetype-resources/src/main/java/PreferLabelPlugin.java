package ${package};

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;

/**
 * The {@value #NAME} plugin: among the nodes a task fits on, prefers those whose label {@code
 * label} has the value {@code value}, by {@code weight} points of node score. Plain Java: the
 * factory builds it from its validated arguments, and unit tests with {@code new}.
 */
public final class PreferLabelPlugin implements Plugin {

  /** The name the scheduler conf uses. */
  public static final String NAME = "${pluginName}";

  private final PreferLabelArguments arguments;

  public PreferLabelPlugin(PreferLabelArguments arguments) {
    this.arguments = arguments;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    if (arguments.weight() == 0) {
      return;
    }
    // The score reads only the node's labels: the same for every task.
    extensions.add(ExtensionPoint.NODE_ORDER, this::score, NodeLocality.TASK_INDEPENDENT);
  }

  /** {@code weight} on a node with the label, 0 elsewhere. */
  double score(TaskInfo task, NodeInfo node) {
    String value = node.node().metadata().labels().get(arguments.label());
    return arguments.value().equals(value) ? arguments.weight() : 0;
  }
}
