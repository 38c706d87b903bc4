package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializer;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.runtime.RawExtension;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A watch event's object, read by {@link WatchObjects} on Caldera's serialization, is what
 * fabric8's own deserializer makes of it, whatever the order of its fields and whether its kind is
 * registered.
 */
class WatchObjectsTest {

  private static final String POD_BODY =
      "\"metadata\":{\"name\":\"p-0\",\"namespace\":\"ns\",\"uid\":\"u-1\",\"resourceVersion\":\"42\","
          + "\"labels\":{\"app\":\"x\"},\"annotations\":{\"scheduling.k8s.io/group-name\":\"g\"}},"
          + "\"spec\":{\"schedulerName\":\"volcano\",\"nodeName\":\"n-3\",\"priority\":7,"
          + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":{\"requests\":"
          + "{\"cpu\":\"100m\",\"memory\":\"64Mi\",\"nvidia.com/gpu\":\"1\"}}}],"
          + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]},"
          + "\"status\":{\"phase\":\"Pending\",\"conditions\":[{\"type\":\"PodScheduled\","
          + "\"status\":\"False\",\"reason\":\"Unschedulable\",\"lastTransitionTime\":"
          + "\"2026-11-29T07:00:00Z\"}],\"unknownField\":{\"nested\":[1,2.5,true,null]}}";

  private static KubernetesSerialization caldera() {
    KubernetesSerialization s = Clients.serialization();
    s.registerKubernetesResource(Pod.class);
    s.registerKubernetesResource(Node.class);
    return s;
  }

  /** fabric8 as shipped, with the same kinds registered. */
  private static KubernetesSerialization fabric8() {
    KubernetesSerialization s = new KubernetesSerialization(new ObjectMapper(), false);
    s.registerKubernetesResource(Status.class);
    s.registerKubernetesResource(Pod.class);
    s.registerKubernetesResource(Node.class);
    return s;
  }

  private static WatchEvent read(KubernetesSerialization s, String object) {
    return s.unmarshal("{\"type\":\"MODIFIED\",\"object\":" + object + "}", WatchEvent.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"," + POD_BODY + "}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + POD_BODY + "}",
        "{" + POD_BODY + ",\"kind\":\"Pod\",\"apiVersion\":\"v1\"}",
        "{\"kind\":\"Pod\"," + POD_BODY + ",\"apiVersion\":\"v1\"}",
        "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}",
      })
  void aRegisteredKindInAnyFieldOrderIsWhatFabric8Reads(String json) {
    Object ours = read(caldera(), json).getObject();
    Object theirs = read(fabric8(), json).getObject();

    assertThat(ours).isInstanceOf(Pod.class).isEqualTo(theirs);
  }

  @Test
  void theFieldsAfterTheLeadAreAllBound() {
    Pod pod =
        (Pod)
            read(caldera(), "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"," + POD_BODY + "}")
                .getObject();

    assertThat(pod.getKind()).isEqualTo("Pod");
    assertThat(pod.getApiVersion()).isEqualTo("v1");
    assertThat(pod.getMetadata().getName()).isEqualTo("p-0");
    assertThat(pod.getSpec().getNodeName()).isEqualTo("n-3");
    assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests())
        .containsKeys("cpu", "memory", "nvidia.com/gpu");
    assertThat(pod.getStatus().getAdditionalProperties()).containsKey("unknownField");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\","
            + "\"metadata\":{\"name\":\"g\",\"namespace\":\"ns\"},\"spec\":{\"minMember\":3}}",
        "{\"metadata\":{\"name\":\"g\"},\"apiVersion\":\"scheduling.volcano.sh/v1beta1\","
            + "\"kind\":\"PodGroup\"}",
      })
  void anUnregisteredKindIsAGenericResource(String json) {
    Object ours = read(caldera(), json).getObject();

    assertThat(ours).isInstanceOf(GenericKubernetesResource.class);
    assertThat(ours).isEqualTo(read(fabric8(), json).getObject());
    assertThat(((GenericKubernetesResource) ours).getMetadata().getName()).isEqualTo("g");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"metadata\":{\"name\":\"x\"}}",
        "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\"}}",
        "{\"kind\":7,\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}",
        "{}",
      })
  void anObjectWithoutAKindAndVersionIsWhatFabric8Makes(String json) {
    Object ours = read(caldera(), json).getObject();

    assertThat(ours).isInstanceOf(RawExtension.class);
    assertThat(ours).isEqualTo(read(fabric8(), json).getObject());
  }

  @Test
  void anErrorEventCarriesAStatus() {
    String json =
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":410,"
            + "\"reason\":\"Expired\",\"message\":\"too old resource version\"}";

    Object ours = read(caldera(), json).getObject();

    assertThat(ours).isInstanceOf(Status.class);
    assertThat(((Status) ours).getCode()).isEqualTo(410);
    assertThat(ours).isEqualTo(read(fabric8(), json).getObject());
  }

  @Test
  void theEventAroundTheObjectIsReadOnAfterIt() {
    WatchEvent event =
        caldera()
            .unmarshal(
                "{\"object\":{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n\"}},"
                    + "\"type\":\"ADDED\"}",
                WatchEvent.class);

    assertThat(event.getType()).isEqualTo("ADDED");
    assertThat(event.getObject()).isInstanceOf(Node.class);
    assertThat(((Node) event.getObject()).getMetadata().getName()).isEqualTo("n");
  }

  @Test
  void theSerializationsMapperReadsAWatchEventsObjectWithIt() throws Exception {
    ObjectMapper mapper = Clients.mapper();
    new KubernetesSerialization(mapper, false); // configures the mapper, as Clients does
    DefaultDeserializationContext ctxt =
        ((DefaultDeserializationContext) mapper.getDeserializationContext())
            .createInstance(mapper.getDeserializationConfig(), mapper.createParser("{}"), null);

    BeanDeserializer event =
        (BeanDeserializer) ctxt.findRootValueDeserializer(mapper.constructType(WatchEvent.class));

    assertThat(event.findProperty("object").getValueDeserializer())
        .isInstanceOf(WatchObjects.class);
  }
}
