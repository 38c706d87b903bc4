package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.admission.Admission;
import dev.caldera.admission.ImplicitGroupNaming;
import dev.caldera.admission.PodRequests;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fabric8 objects → the scheduler's model, and the admission defaults. */
class ConvertersTest {

  private static io.fabric8.kubernetes.api.model.Quantity q(String s) {
    return new io.fabric8.kubernetes.api.model.Quantity(s);
  }

  @Test
  void pod_requestsItsLimitsWhereNoRequestIsGiven_andKeepsTheSpec() {
    Pod p =
        PodConverter.pod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("ns")
                .withUid("u1")
                .withCreationTimestamp("2026-11-21T10:00:00Z")
                .addNewOwnerReference()
                .withApiVersion("apps/v1")
                .withKind("ReplicaSet")
                .withName("rs")
                .withUid("rs-uid")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("volcano")
                .withPriority(5)
                .addToNodeSelector("zone", "a")
                .addNewToleration()
                .withKey("gpu")
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .endToleration()
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToRequests("cpu", q("500m"))
                .addToLimits("cpu", q("1"))
                .addToLimits("memory", q("2Gi"))
                .endResources()
                .addNewPort()
                .withContainerPort(80)
                .withHostPort(8080)
                .endPort()
                .endContainer()
                .addNewSchedulingGate()
                .withName("wait")
                .endSchedulingGate()
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("disk")
                .withOperator("In")
                .withValues("ssd")
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withLastTransitionTime("2026-11-21T10:00:05Z")
                .endCondition()
                .endStatus()
                .build());
    assertThat(p.key()).isEqualTo("ns/p");
    assertThat(p.metadata().uid()).isEqualTo("u1");
    assertThat(p.metadata().creationTimestamp()).isEqualTo(Instant.parse("2026-11-21T10:00:00Z"));
    assertThat(p.metadata().ownerReferences().get(0).controller()).isTrue();
    assertThat(p.containers().get(0).requests())
        .containsEntry("cpu", Quantity.parse("500m"))
        .containsEntry("memory", Quantity.parse("2Gi"));
    assertThat(p.containers().get(0).ports().get(0).hostPort()).isEqualTo(8080);
    assertThat(p.priority()).isEqualTo(5);
    assertThat(p.nodeSelector()).containsEntry("zone", "a");
    assertThat(p.tolerations().get(0).operator()).isEqualTo("Exists");
    assertThat(p.schedulingGates()).containsExactly("wait");
    assertThat(p.nodeAffinity().required().get(0).matchExpressions().get(0).values())
        .containsExactly("ssd");
    assertThat(p.podAffinity().isEmpty()).isTrue();
    assertThat(p.conditions().get(0).lastTransitionTime())
        .isEqualTo(Instant.parse("2026-11-21T10:00:05Z"));
  }

  @Test
  void pod_withoutSpecOrStatus_getsTheModelDefaults() {
    Pod p =
        PodConverter.pod(new PodBuilder().withNewMetadata().withName("p").endMetadata().build());
    assertThat(p.schedulerName()).isEqualTo("default-scheduler");
    assertThat(p.phase()).isEqualTo("Pending");
    assertThat(p.nodeAffinity().required()).isNull();
  }

  @Test
  void queue_withAnAnnotationWrittenNull_isReadWithoutIt() {
    java.util.Map<String, String> annotations = new java.util.HashMap<>();
    annotations.put("caldera.dev/drain", null);
    annotations.put("team", "ml");
    Queue q =
        VolcanoConverter.queue(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName("q")
                .withAnnotations(annotations)
                .endMetadata()
                .build());
    assertThat(q.metadata().annotations()).containsExactly(Map.entry("team", "ml"));
  }

  @Test
  void queue_readsNumbersWrittenWithoutQuotes_andVolcanosDefaults() {
    Queue q =
        VolcanoConverter.queue(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName("q")
                .endMetadata()
                .addToAdditionalProperties(
                    "spec",
                    Map.of(
                        "capability", Map.of("cpu", 8, "memory", "16Gi"),
                        "guarantee", Map.of("resource", Map.of("cpu", "1")),
                        "parent", "root",
                        "affinity",
                            Map.of(
                                "nodeGroupAffinity",
                                Map.of(
                                    "requiredDuringSchedulingIgnoredDuringExecution",
                                    List.of("g1")))))
                .addToAdditionalProperties(
                    "status", Map.of("state", "Closed", "allocated", Map.of("cpu", "2")))
                .build());
    assertThat(q.weight()).isEqualTo(1);
    assertThat(q.capability()).containsEntry("cpu", Quantity.parse("8"));
    assertThat(q.guarantee()).containsEntry("cpu", Quantity.parse("1"));
    assertThat(q.deserved()).isNull();
    assertThat(q.reclaimable()).isNull();
    assertThat(q.parent()).isEqualTo("root");
    assertThat(q.nodeGroupAffinity().required()).containsExactly("g1");
    assertThat(q.state()).isEqualTo("Closed");
    assertThat(q.allocated()).containsEntry("cpu", Quantity.parse("2"));
  }

  @Test
  void podGroup_withoutQueue_isInDefault_andReadsItsStatus() {
    var r =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("scheduling.volcano.sh/v1beta1")
            .withKind("PodGroup")
            .withNewMetadata()
            .withName("pg")
            .withNamespace("ns")
            .endMetadata()
            .addToAdditionalProperties(
                "spec",
                Map.of(
                    "minMember",
                    3,
                    "minTaskMember",
                    Map.of("worker", 2),
                    "minResources",
                    Map.of("cpu", "3")))
            .addToAdditionalProperties(
                "status",
                Map.of(
                    "phase",
                    "Inqueue",
                    "running",
                    1,
                    "conditions",
                    List.of(Map.of("type", "Unschedulable", "status", "True", "reason", "x"))))
            .build();
    PodGroup pg = VolcanoConverter.podGroup(r);
    assertThat(pg.key()).isEqualTo("ns/pg");
    assertThat(pg.queue()).isEqualTo("default");
    assertThat(pg.minMember()).isEqualTo(3);
    assertThat(pg.minTaskMember()).containsEntry("worker", 2);
    assertThat(pg.minResources()).containsEntry("cpu", Quantity.parse("3"));
    assertThat(pg.phase()).isEqualTo("Inqueue");
    assertThat(pg.conditions())
        .singleElement()
        .satisfies(c -> assertThat(c.reason()).isEqualTo("x"));
    assertThat(VolcanoConverter.counts(r)).containsExactly(1, 0, 0);
  }

  @Test
  void implicitGroup_isNamedAfterTheControllingOwner_elseThePod() {
    Pod owned =
        PodConverter.pod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("ns")
                .withUid("pod-uid")
                .addNewOwnerReference()
                .withKind("ReplicaSet")
                .withName("rs")
                .withUid("rs-uid")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .build());
    Pod alone =
        PodConverter.pod(
            new PodBuilder()
                .withNewMetadata()
                .withName("q")
                .withNamespace("ns")
                .withUid("q-uid")
                .endMetadata()
                .build());
    assertThat(ImplicitGroupNaming.CONTROLLER_UID.groupName(owned)).isEqualTo("podgroup-rs-uid");
    assertThat(ImplicitGroupNaming.CONTROLLER_UID.groupName(alone)).isEqualTo("podgroup-q-uid");
    assertThat(
            new Admission(List.of(), Map.of(), ImplicitGroupNaming.CONTROLLER_UID)
                .implicitGroup(alone)
                .metadata()
                .ownerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.kind()).isEqualTo("Pod"));
  }

  @Test
  void requests_takeTheLargerOfContainersAndEachInitContainer_plusSidecars() {
    Pod p =
        PodConverter.pod(
            new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withNewResources()
                .addToRequests("cpu", q("1"))
                .endResources()
                .endContainer()
                .addNewInitContainer()
                .withNewResources()
                .addToRequests("cpu", q("3"))
                .endResources()
                .endInitContainer()
                .addNewInitContainer()
                .withRestartPolicy("Always")
                .withNewResources()
                .addToRequests("cpu", q("500m"))
                .endResources()
                .endInitContainer()
                .addToOverhead("cpu", q("100m"))
                .endSpec()
                .build());
    // max(1 + 0.5 sidecar, 3) + 0.1 overhead
    assertThat(PodRequests.of(p)).containsEntry("cpu", Quantity.parse("3.1"));
  }

  @Test
  void priority_comesFromTheClass_orTheLowestGlobalDefault_neverOverridesTheSpec() {
    PriorityClass high = new PriorityClass("high", 100, false);
    PriorityClass d1 = new PriorityClass("d1", 50, true);
    PriorityClass d2 = new PriorityClass("d2", 20, true);
    Map<String, PriorityClass> classes = Map.of("high", high, "d1", d1, "d2", d2);
    assertThat(Admission.globalDefault(classes.values())).isEqualTo(d2);
    Admission admission =
        new Admission(classes.values(), Map.of(), ImplicitGroupNaming.CONTROLLER_UID);

    Pod named = pod("high", null);
    Pod unnamed = pod(null, null);
    Pod unknown = pod("nope", null);
    Pod explicit = pod("high", 3);
    assertThat(admission.withPriority(named).priority()).isEqualTo(100);
    assertThat(admission.withPriority(unnamed).priority()).isEqualTo(20);
    assertThat(admission.withPriority(unknown).priority()).isNull();
    assertThat(admission.withPriority(explicit).priority()).isEqualTo(3);
    assertThat(
            new Admission(
                    classes.values(), Map.of("high", "Never"), ImplicitGroupNaming.CONTROLLER_UID)
                .withPriority(named)
                .preemptionPolicy())
        .isEqualTo("Never");
  }

  private static Pod pod(String priorityClass, Integer priority) {
    return PodConverter.pod(
        new PodBuilder()
            .withNewMetadata()
            .withName("p")
            .endMetadata()
            .withNewSpec()
            .withPriorityClassName(priorityClass)
            .withPriority(priority)
            .endSpec()
            .build());
  }

  @Test
  void metricsPercent_isUsageOverAllocatable() {
    assertThat(MetricsPoller.percent(q("500m"), Quantity.parse("2"))).isEqualTo(25.0);
    assertThat(MetricsPoller.percent(q("1Gi"), Quantity.parse("4Gi"))).isEqualTo(25.0);
    assertThat(MetricsPoller.percent(null, Quantity.parse("4"))).isZero();
    assertThat(MetricsPoller.percent(q("1"), null)).isZero();
  }

  @Test
  void times_readAsOffsetDateTimeReadsThem() {
    for (String text :
        List.of(
            "2026-11-24T20:34:15Z",
            "1970-01-01T00:00:00Z",
            "2024-02-29T23:59:59Z",
            "2026-11-24T20:34:15.123456Z",
            "2026-11-24T20:34:15+02:00")) {
      assertThat(Meta.time(text)).as(text).isEqualTo(OffsetDateTime.parse(text).toInstant());
    }
    for (String text :
        List.of(
            "2025-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-11-24T24:00:00Z",
            "2026-11-24T20:60:15Z",
            "2026-11-24T2-:34:15Z",
            "2026-11-24 20:34:15Z",
            "not a time at all!!!")) {
      assertThat(Meta.time(text)).as(text).isNull();
    }
  }
}
