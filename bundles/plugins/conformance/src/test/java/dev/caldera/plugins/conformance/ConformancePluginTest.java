package dev.caldera.plugins.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConformancePluginTest {

  private final RecordingExtensions ext =
      RecordingExtensions.open(new ConformancePlugin(), new FakeSession());
  private final FakeTask evictor = new FakeTask("ns/evictor");
  private final FakeTask plain = new FakeTask("ns/plain");
  private final FakeTask clusterCritical =
      new FakeTask("ns/cc").priorityClassName("system-cluster-critical");
  private final FakeTask nodeCritical =
      new FakeTask("ns/nc").priorityClassName("system-node-critical");
  private final FakeTask kubeSystem = new FakeTask("kube-system/dns");
  private final FakeTask otherClass = new FakeTask("ns/other").priorityClassName("high");
  private final List<TaskInfo> candidates =
      List.of(clusterCritical, plain, nodeCritical, kubeSystem, otherClass);

  @Test
  void registersPreemptableAndReclaimableOnly() {
    assertThat(ext.points())
        .containsExactlyInAnyOrder(ExtensionPoint.PREEMPTABLE, ExtensionPoint.RECLAIMABLE);
  }

  @Test
  void preemptable_skipsCriticalAndKubeSystemPodsKeepingInputOrder() {
    Victims victims = ext.get(ExtensionPoint.PREEMPTABLE).select(evictor, candidates);

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(plain, otherClass);
  }

  @Test
  void reclaimable_skipsCriticalAndKubeSystemPods() {
    Victims victims = ext.get(ExtensionPoint.RECLAIMABLE).select(evictor, candidates);

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(plain, otherClass);
  }

  @Test
  void preemptable_permitsEmptyWhenOnlyCriticalPodsAreOffered() {
    Victims victims =
        ext.get(ExtensionPoint.PREEMPTABLE).select(evictor, List.of(kubeSystem, nodeCritical));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).isEmpty();
  }

  @Test
  void factory_ignoresUnknownArguments() {
    var plugin =
        new ConformancePluginFactory()
            .create(new PluginArguments("conformance", Map.of("x", 1), true));

    assertThat(plugin).isInstanceOf(ConformancePlugin.class);
    assertThat(plugin.name()).isEqualTo("conformance");
  }
}
