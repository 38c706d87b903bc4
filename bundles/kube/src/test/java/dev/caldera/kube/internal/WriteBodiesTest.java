package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/** The bodies written as text read back as the objects the API server expects. */
class WriteBodiesTest {

  private final KubernetesSerialization json = new KubernetesSerialization();

  @Test
  void binding_readsBackAsABindingOfThePodToTheNode() {
    Binding b =
        json.unmarshal(WriteBodies.binding("ns-1", "p\"1\\x", "uid-1", "node-é"), Binding.class);

    assertThat(b.getApiVersion()).isEqualTo("v1");
    assertThat(b.getKind()).isEqualTo("Binding");
    assertThat(b.getMetadata().getNamespace()).isEqualTo("ns-1");
    assertThat(b.getMetadata().getName()).isEqualTo("p\"1\\x");
    assertThat(b.getMetadata().getUid()).isEqualTo("uid-1");
    assertThat(b.getTarget().getApiVersion()).isEqualTo("v1");
    assertThat(b.getTarget().getKind()).isEqualTo("Node");
    assertThat(b.getTarget().getName()).isEqualTo("node-é");
  }

  @Test
  void event_readsBackWithEveryField_andNoNamespaceForAClusterObject() {
    String note = "line 1\nline \"2\"\t</script>\u0001";
    Event e =
        json.unmarshal(
            WriteBodies.event(
                "default",
                "q1.17a",
                "2026-11-28T03:00:00.123456Z",
                "caldera",
                "caldera-0",
                "Scheduling",
                "Unschedulable",
                "Warning",
                note,
                new ObjectReferenceBuilder()
                    .withApiVersion("scheduling.volcano.sh/v1beta1")
                    .withKind("Queue")
                    .withName("q1")
                    .withUid("u-9")
                    .build()),
            Event.class);

    assertThat(e.getApiVersion()).isEqualTo("events.k8s.io/v1");
    assertThat(e.getKind()).isEqualTo("Event");
    assertThat(e.getMetadata().getName()).isEqualTo("q1.17a");
    assertThat(e.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(e.getEventTime().getTime()).isEqualTo("2026-11-28T03:00:00.123456Z");
    assertThat(e.getReportingController()).isEqualTo("caldera");
    assertThat(e.getReportingInstance()).isEqualTo("caldera-0");
    assertThat(e.getAction()).isEqualTo("Scheduling");
    assertThat(e.getReason()).isEqualTo("Unschedulable");
    assertThat(e.getType()).isEqualTo("Warning");
    assertThat(e.getNote()).isEqualTo(note);
    assertThat(e.getRegarding().getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
    assertThat(e.getRegarding().getKind()).isEqualTo("Queue");
    assertThat(e.getRegarding().getNamespace()).isNull();
    assertThat(e.getRegarding().getName()).isEqualTo("q1");
    assertThat(e.getRegarding().getUid()).isEqualTo("u-9");
  }
}
