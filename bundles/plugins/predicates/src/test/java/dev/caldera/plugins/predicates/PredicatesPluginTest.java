package dev.caldera.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class PredicatesPluginTest extends PredicatesFixture {

  @Test
  void registersVolcanosExtensionPoints() {
    node("n1");
    assertThat(extensions().points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.PRE_PREDICATE,
            ExtensionPoint.PREDICATE,
            ExtensionPoint.BATCH_NODE_ORDER,
            ExtensionPoint.SIMULATE_PREDICATE,
            ExtensionPoint.SIMULATE_ADD_TASK,
            ExtensionPoint.SIMULATE_REMOVE_TASK,
            ExtensionPoint.EVENT_HANDLER,
            ExtensionPoint.PRE_BIND);
  }

  @Test
  void factory_isFoundByServiceLoaderAndValidatesArguments() {
    PluginFactory factory =
        ServiceLoader.load(PluginFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(f -> f.name().equals("predicates"))
            .findFirst()
            .orElseThrow();

    PredicatesPlugin plugin =
        (PredicatesPlugin)
            factory.create(
                new PluginArguments(
                    "predicates", Map.of(PredicatesArguments.NODE_PORTS, false), false));
    assertThat(plugin.name()).isEqualTo("predicates");
    assertThat(plugin.arguments().nodePorts()).isFalse();
    assertThatThrownBy(
            () ->
                factory.create(
                    new PluginArguments(
                        "predicates", Map.of(PredicatesArguments.NODE_AFFINITY, "yes"), false)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("predicate.NodeAffinityEnable");
  }

  @Test
  void podCount_passesWhileTheNodeHasRoom() {
    FakeNode n1 = node("n1").allocatable("pods", "2");
    running("a", n1);

    assertPasses(check(pod("p"), n1));
  }

  @Test
  void podCount_failsWhenTheNodeHoldsMaxTaskNumPods() {
    FakeNode n1 = node("n1").allocatable("pods", "2");
    running("a", n1);
    running("b", n1).status(TaskStatus.RELEASING);

    assertFails(check(pod("p"), n1), Code.UNSCHEDULABLE, "node(s) pod number exceeded");
  }

  @Test
  void podCount_failsOnANodeWithoutPodsAllocatable() {
    FakeNode n1 = session.addNode("n1").allocatable("cpu", "8");

    assertFails(check(pod("p"), n1), Code.UNSCHEDULABLE, "node(s) pod number exceeded");
  }

  @Test
  void podCount_doesNotStopTheOtherFilters() {
    FakeNode n1 = node("n1").allocatable("pods", "1").unschedulable(true);
    running("a", n1).hostPort(80);
    FakeNode n2 = node("n2").allocatable("pods", "1");
    running("b", n2).hostPort(80);

    assertFails(
        check(pod("p").hostPort(80), n1),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) pod number exceeded",
        "node(s) were unschedulable");
    assertFails(
        check(pod("q").hostPort(80), n2),
        Code.UNSCHEDULABLE,
        "node(s) pod number exceeded",
        "node(s) didn't have free ports for the requested pod ports");
  }

  @Test
  void events_aPipelinedTaskCountsAtOnce() {
    FakeNode n1 = node("n1").allocatable("pods", "2");
    running("a", n1);
    FakeTask pipelined = pod("b");
    FakeTask next = pod("c");
    assertPasses(check(next, n1));

    pipelined.status(TaskStatus.PIPELINED).on(n1);
    events().allocated(pipelined);

    assertFails(check(next, n1), Code.UNSCHEDULABLE, "node(s) pod number exceeded");
  }

  @Test
  void events_anEvictedTaskStopsCountingAtOnceAndCountsAgainWhenUnevicted() {
    FakeNode n1 = node("n1").allocatable("pods", "1");
    FakeTask victim = running("victim", n1);
    FakeTask preemptor = pod("preemptor");
    assertFails(check(preemptor, n1), Code.UNSCHEDULABLE, "node(s) pod number exceeded");

    victim.status(TaskStatus.RELEASING);
    events().deallocated(victim);
    assertPasses(check(preemptor, n1));

    victim.status(TaskStatus.RUNNING);
    events().allocated(victim);
    assertFails(check(preemptor, n1), Code.UNSCHEDULABLE, "node(s) pod number exceeded");
  }

  @Test
  void events_anEvictedTaskFreesItsHostPorts() {
    FakeNode n1 = node("n1");
    FakeTask victim = running("victim", n1).hostPort(8080);
    FakeTask preemptor = pod("preemptor").hostPort(8080);
    assertFails(
        check(preemptor, n1),
        Code.UNSCHEDULABLE,
        "node(s) didn't have free ports for the requested pod ports");

    victim.status(TaskStatus.RELEASING);
    events().deallocated(victim);

    assertPasses(check(preemptor, n1));
  }

  @Test
  void predicate_withoutPrePredicateComputesTheStateItself() {
    FakeNode n1 = node("n1");
    running("web", n1).label("app", "web");
    FakeTask p = pod("p").requiredPodAntiAffinity(HOSTNAME, "app", "web");

    Status status = extensions().get(ExtensionPoint.PREDICATE).check(p, n1);

    assertFails(status, Code.UNSCHEDULABLE, "node(s) didn't match pod anti-affinity rules");
  }

  @Test
  void predicate_onANodeOutsideTheSessionIsAnError() {
    node("n1");
    FakeNode stranger = new FakeNode("stranger").allocatable("pods", "10");

    Status status = extensions().get(ExtensionPoint.PREDICATE).check(pod("p"), stranger);

    assertFails(status, Code.ERROR, "node info not found");
  }

  @Test
  void batchNodeOrder_addsNothing() {
    FakeNode n1 = node("n1");
    FakeNode n2 = node("n2");
    double[] scores = {3.0, 4.0};

    Status status =
        extensions()
            .get(ExtensionPoint.BATCH_NODE_ORDER)
            .score(pod("p"), List.<NodeInfo>of(n1, n2), scores);

    assertPasses(status);
    assertThat(scores).containsExactly(3.0, 4.0);
  }

  @Test
  void cache_reportsACachedFailureOfTheSameTemplateAsVolcanosCacheError() {
    arguments = withCache(true);
    FakeNode tainted = node("n1").taint("dedicated", "gpu", "NoSchedule");
    FakeTask first = pod("first").annotation("volcano.sh/template-uid", "tpl-1");
    FakeTask second = pod("second").annotation("volcano.sh/template-uid", "tpl-1");
    FakeTask other = pod("other").annotation("volcano.sh/template-uid", "tpl-2");

    assertFails(
        check(first, tainted),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) had untolerated taint(s)");
    assertFails(check(second, tainted), Code.ERROR, "plugin equivalence cache predicates failed");
    assertFails(
        check(other, tainted),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) had untolerated taint(s)");
  }

  @Test
  void cache_keepsAPassOfTheTemplateEvenWhenALaterPodWouldFail() {
    arguments = withCache(true);
    FakeNode tainted = node("n1").taint("dedicated", "gpu", "NoSchedule");
    FakeTask tolerant =
        pod("tolerant")
            .annotation("volcano.sh/template-uid", "tpl")
            .tolerates("dedicated", "gpu", "NoSchedule");
    FakeTask intolerant = pod("intolerant").annotation("volcano.sh/template-uid", "tpl");

    assertPasses(check(tolerant, tainted));
    assertPasses(check(intolerant, tainted));
  }

  @Test
  void cache_isNotUsedWithoutTemplateOrWhenDisabled() {
    arguments = withCache(true);
    FakeNode tainted = node("n1").taint("dedicated", "gpu", "NoSchedule");
    assertFails(
        check(pod("a"), tainted),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) had untolerated taint(s)");
    assertFails(
        check(pod("b"), tainted),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) had untolerated taint(s)");
  }

  @Test
  void cache_disabledByDefault() {
    FakeNode tainted = node("n1").taint("dedicated", "gpu", "NoSchedule");
    FakeTask first = pod("first").annotation("volcano.sh/template-uid", "tpl-1");
    FakeTask second = pod("second").annotation("volcano.sh/template-uid", "tpl-1");

    check(first, tainted);
    assertFails(
        check(second, tainted),
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "node(s) had untolerated taint(s)");
  }

  private static PredicatesArguments withCache(boolean cache) {
    return PredicatesArguments.from(
        new PluginArguments("predicates", Map.of(PredicatesArguments.CACHE, cache), false));
  }
}
