package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionStatus;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs {@link RealClusterTest}, the opt-in suite for a real API server, against the mock server, so
 * that its own steps (installing what it needs, its fixtures, its checks, its clean-up) run in
 * every build and not only where a cluster is at hand. The mock server stands in for what a bare
 * API server does by itself: it answers binding and eviction for every pod, and the CRDs of {@code
 * runtime/deploy/} are there and established, as the suite expects them to become.
 */
class RealClusterFlowsOnMockServerTest {

  @Test
  void theRealClusterSuitePassesAgainstTheMockServer(@TempDir Path dir) throws Exception {
    try (MockApi api = new MockApi()) {
      api.emulateSubresourcesOfEveryPod();
      for (CustomResourceDefinition crd : crds()) {
        crd.setStatus(established());
        api.kubectl.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
      Path kubeconfig = dir.resolve("kubeconfig");
      Files.writeString(kubeconfig, TestKubeconfig.yaml(URI.create(api.url())));

      List<String> threadsAtFailure = new CopyOnWriteArrayList<>();
      TestExecutionSummary summary = runRealClusterTest(kubeconfig, threadsAtFailure);

      assertThat(summary.getFailures())
          .as(
              "threads of the mock server and the HTTP clients when a test failed:%n%s",
              String.join("\n", threadsAtFailure))
          .extracting(
              f -> f.getTestIdentifier().getDisplayName() + ": " + describe(f.getException()))
          .isEmpty();
      assertThat(summary.getTestsSucceededCount()).isEqualTo(4);
      assertThat(api.kubectl.pods().inAnyNamespace().list().getItems())
          .as("the suite cleans up its pods")
          .isEmpty();
      assertThat(api.kubectl.nodes().list().getItems()).as("and its nodes").isEmpty();
    }
  }

  /** The exception, its causes and where in Caldera's code it came from: enough to tell a flake. */
  private static String describe(Throwable t) {
    StringBuilder out = new StringBuilder(String.valueOf(t));
    java.util.Arrays.stream(t.getStackTrace())
        .filter(e -> e.getClassName().startsWith("dev.caldera"))
        .findFirst()
        .ifPresent(e -> out.append(" at ").append(e));
    for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      out.append("; caused by ").append(c);
    }
    return out.toString();
  }

  /**
   * Runs the suite; when one of its tests fails, {@code threadsAtFailure} gets what the mock
   * server's event loops and the HTTP clients' threads were doing at that moment, for a failure
   * that is a stalled request rather than a wrong answer.
   */
  private static TestExecutionSummary runRealClusterTest(
      Path kubeconfig, List<String> threadsAtFailure) {
    System.setProperty(RealClusterTest.KUBECONFIG_PROPERTY, kubeconfig.toString());
    try {
      SummaryGeneratingListener listener = new SummaryGeneratingListener();
      TestExecutionListener onFailure =
          new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
              if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                threadsAtFailure.add(test.getDisplayName() + ":\n" + networkThreads());
              }
            }
          };
      LauncherFactory.create()
          .execute(
              LauncherDiscoveryRequestBuilder.request()
                  .selectors(selectClass(RealClusterTest.class))
                  .build(),
              listener,
              onFailure);
      return listener.getSummary();
    } finally {
      System.clearProperty(RealClusterTest.KUBECONFIG_PROPERTY);
    }
  }

  private static String networkThreads() {
    StringBuilder out = new StringBuilder();
    Thread.getAllStackTraces().entrySet().stream()
        .filter(
            e ->
                e.getKey().getName().startsWith("vert.x-")
                    || e.getKey().getName().startsWith("HttpClient-"))
        .sorted(java.util.Map.Entry.comparingByKey(java.util.Comparator.comparing(Thread::getName)))
        .forEach(
            e -> {
              out.append('"')
                  .append(e.getKey().getName())
                  .append("\" ")
                  .append(e.getKey().getState())
                  .append('\n');
              for (StackTraceElement frame : e.getValue()) {
                out.append("    at ").append(frame).append('\n');
              }
            });
    return out.toString();
  }

  private static java.util.List<CustomResourceDefinition> crds() throws Exception {
    return DeployManifests.load(DeployManifests.crds()).stream()
        .map(CustomResourceDefinition.class::cast)
        .toList();
  }

  private static CustomResourceDefinitionStatus established() {
    CustomResourceDefinitionStatus status = new CustomResourceDefinitionStatus();
    status
        .getConditions()
        .add(
            new CustomResourceDefinitionConditionBuilder()
                .withType("Established")
                .withStatus("True")
                .build());
    return status;
  }
}
