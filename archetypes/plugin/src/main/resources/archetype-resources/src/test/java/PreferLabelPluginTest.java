package ${package};

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plugin as plain Java, on the test kit's fake session. */
class PreferLabelPluginTest {

  private final FakeSession session = new FakeSession();

  private static PreferLabelArguments arguments(Map<String, Object> values) {
    return PreferLabelArguments.from(new PluginArguments(PreferLabelPlugin.NAME, values, false));
  }

  @Test
  void nodeOrder_scoresTheLabelledNodesOnly() {
    FakeNode preferred = session.addNode("n1").label("example.com/preferred", "true");
    FakeNode other = session.addNode("n2").label("example.com/preferred", "false");
    FakeTask task = session.addJob("ns/job").task("t0");

    NodeOrderFn score =
        RecordingExtensions.open(new PreferLabelPlugin(arguments(Map.of())), session)
            .get(ExtensionPoint.NODE_ORDER);

    assertThat(score.score(task, preferred)).isEqualTo(10.0);
    assertThat(score.score(task, other)).isZero();
  }

  @Test
  void arguments_nameTheLabelTheValueAndTheWeight() {
    FakeNode gpu = session.addNode("n1").label("pool", "gpu");
    FakeTask task = session.addJob("ns/job").task("t0");
    PreferLabelPlugin plugin =
        new PreferLabelPlugin(arguments(Map.of("label", "pool", "value", "gpu", "weight", 40)));

    assertThat(plugin.score(task, gpu)).isEqualTo(40.0);
  }

  @Test
  void weightZero_registersNothing() {
    RecordingExtensions recorded =
        RecordingExtensions.open(new PreferLabelPlugin(arguments(Map.of("weight", 0))), session);

    assertThat(recorded.points()).isEmpty();
  }

  @Test
  void aWeightOutOfRange_isAnErrorNamingTheKey() {
    assertThatThrownBy(() -> arguments(Map.of("weight", 500)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("argument weight is")
        .hasMessageContaining("expected a weight from 0 to 100");
  }

  @Test
  void theFactoryPublishesThePluginUnderItsName() {
    PreferLabelPluginFactory factory = new PreferLabelPluginFactory();

    assertThat(factory.name()).isEqualTo(PreferLabelPlugin.NAME);
    assertThat(factory.create(PluginArguments.empty(PreferLabelPlugin.NAME)).name())
        .isEqualTo(PreferLabelPlugin.NAME);
  }
}
