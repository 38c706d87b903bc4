package dev.caldera.plugins.predicates;

import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.testkit.FakeNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodePortsTest extends PredicatesFixture {

  private static final String PORTS = "node(s) didn't have free ports for the requested pod ports";

  @Test
  void samePortAndProtocol_conflicts() {
    FakeNode n1 = node("n1");
    running("a", n1).hostPort(8080);

    assertFails(check(pod("p").hostPort(8080), n1), Code.UNSCHEDULABLE, PORTS);
  }

  @Test
  void otherPortOrProtocol_doesNotConflict() {
    FakeNode n1 = node("n1");
    running("a", n1).hostPort(8080);

    assertPasses(check(pod("port").hostPort(8081), n1));
    assertPasses(check(pod("udp").hostPort(8080, "UDP", ""), n1));
  }

  @Test
  void hostIps_conflictOnlyWhenEqualOrEitherBindsAllAddresses() {
    FakeNode specific = node("n1");
    running("a", specific).hostPort(80, "TCP", "10.0.0.1");
    FakeNode wildcard = node("n2");
    running("b", wildcard).hostPort(80, "TCP", "0.0.0.0");

    assertPasses(check(pod("other-ip").hostPort(80, "TCP", "10.0.0.2"), specific));
    assertFails(
        check(pod("same-ip").hostPort(80, "TCP", "10.0.0.1"), specific), Code.UNSCHEDULABLE, PORTS);
    assertFails(check(pod("wants-all").hostPort(80), specific), Code.UNSCHEDULABLE, PORTS);
    assertFails(
        check(pod("wants-one").hostPort(80, "TCP", "10.0.0.9"), wildcard),
        Code.UNSCHEDULABLE,
        PORTS);
  }

  @Test
  void containerPortsWithoutHostPort_doNotCount() {
    FakeNode n1 = node("n1");
    running("a", n1)
        .container(
            new Container("side", "", null, List.of(new ContainerPort(80, 0, null, null)), null));

    assertPasses(
        check(
            pod("p")
                .container(
                    new Container(
                        "side", "", null, List.of(new ContainerPort(80, 0, null, null)), null)),
            n1));
  }

  @Test
  void sidecarInitContainerPortsCount_plainInitContainerPortsDoNot() {
    FakeNode sidecarNode = node("n1");
    running("sidecar", sidecarNode)
        .initContainer(
            new Container(
                "s", "", null, List.of(new ContainerPort(9000, 9000, null, null)), "Always"));
    FakeNode initNode = node("n2");
    running("init", initNode)
        .initContainer(
            new Container("i", "", null, List.of(new ContainerPort(9000, 9000, null, null)), null));

    assertFails(check(pod("p").hostPort(9000), sidecarNode), Code.UNSCHEDULABLE, PORTS);
    assertPasses(check(pod("q").hostPort(9000), initNode));
  }

  @Test
  void disabled_ignoresConflicts() {
    arguments =
        PredicatesArguments.from(
            new PluginArguments(
                "predicates", Map.of(PredicatesArguments.NODE_PORTS, false), false));
    FakeNode n1 = node("n1");
    running("a", n1).hostPort(8080);

    assertPasses(check(pod("p").hostPort(8080), n1));
  }
}
