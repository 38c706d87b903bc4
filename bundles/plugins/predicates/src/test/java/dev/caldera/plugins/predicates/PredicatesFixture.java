package dev.caldera.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;

/** A session with nodes and pods, and the predicates plugin opened on it on first use. */
abstract class PredicatesFixture {

  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";

  final FakeSession session = new FakeSession();
  PredicatesArguments arguments = PredicatesArguments.DEFAULTS;
  private RecordingExtensions extensions;

  /** A node with room for 110 pods, labelled with its hostname. */
  FakeNode node(String name) {
    return session
        .addNode(name)
        .allocatable("cpu", "8", "memory", "16Gi", "pods", "110")
        .label(HOSTNAME, name);
  }

  /** A Pending pod {@code ns/name}. */
  static FakeTask pod(String name) {
    return new FakeTask(name.contains("/") ? name : "ns/" + name).requests("cpu", "1");
  }

  /** A Running pod placed on {@code node}. */
  static FakeTask running(String name, FakeNode node) {
    return pod(name).status(TaskStatus.RUNNING).on(node);
  }

  /** The plugin's registrations; the plugin is opened on the first call. */
  RecordingExtensions extensions() {
    if (extensions == null) {
      extensions = RecordingExtensions.open(new PredicatesPlugin(arguments), session);
    }
    return extensions;
  }

  Status prePredicate(FakeTask task) {
    return extensions().get(ExtensionPoint.PRE_PREDICATE).check(task);
  }

  /** Runs the pre-predicate (which must pass) and the predicate. */
  Status check(FakeTask task, FakeNode node) {
    assertThat(prePredicate(task).isSuccess()).as("pre-predicate").isTrue();
    return extensions().get(ExtensionPoint.PREDICATE).check(task, node);
  }

  EventHandler events() {
    return extensions().get(ExtensionPoint.EVENT_HANDLER);
  }

  static void assertPasses(Status status) {
    assertThat(status.isSuccess()).as("status %s", status).isTrue();
  }

  static void assertFails(Status status, Status.Code code, String... reasons) {
    assertThat(status.code()).as("status %s", status).isEqualTo(code);
    assertThat(status.reasons()).containsExactly(reasons);
  }
}
