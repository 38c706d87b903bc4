package dev.caldera.admission;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdmissionTest {

  private static final PriorityClass HIGH = new PriorityClass("high", 1000, false);
  private static final PriorityClass LOW_DEFAULT = new PriorityClass("low-default", 10, true);
  private static final PriorityClass MID_DEFAULT = new PriorityClass("mid-default", 50, true);

  private static Admission admission(ImplicitGroupNaming naming) {
    return new Admission(List.of(HIGH, MID_DEFAULT, LOW_DEFAULT), Map.of("high", "Never"), naming);
  }

  private static Admission admission() {
    return admission(ImplicitGroupNaming.POD_UID);
  }

  @Test
  void globalDefault_isTheLowestValueOfSeveral_theFirstOfEqualOnes_elseNull() {
    assertThat(Admission.globalDefault(List.of(HIGH, MID_DEFAULT, LOW_DEFAULT)))
        .isEqualTo(LOW_DEFAULT);
    PriorityClass twin = new PriorityClass("twin", 10, true);
    assertThat(Admission.globalDefault(List.of(LOW_DEFAULT, twin))).isEqualTo(LOW_DEFAULT);
    assertThat(Admission.globalDefault(List.of(twin, LOW_DEFAULT))).isEqualTo(twin);
    assertThat(Admission.globalDefault(List.of(HIGH))).isNull();
  }

  @Test
  void withPriority_takesTheClassValue_andItsPreemptionPolicy() {
    Pod p = admission().withPriority(pod("ns/p").priorityClassName("high").build());
    assertThat(p.priority()).isEqualTo(1000);
    assertThat(p.preemptionPolicy()).isEqualTo("Never");
  }

  @Test
  void withPriority_keepsThePodsOwnPreemptionPolicy() {
    Pod p =
        admission()
            .withPriority(
                pod("ns/p")
                    .priorityClassName("high")
                    .preemptionPolicy("PreemptLowerPriority")
                    .build());
    assertThat(p.priority()).isEqualTo(1000);
    assertThat(p.preemptionPolicy()).isEqualTo("PreemptLowerPriority");
  }

  @Test
  void withPriority_withoutAClass_takesTheLowestGlobalDefault() {
    Pod p = admission().withPriority(pod("ns/p").build());
    assertThat(p.priority()).isEqualTo(10);
    assertThat(p.preemptionPolicy()).isEmpty();
    Pod none =
        new Admission(List.of(HIGH), Map.of(), ImplicitGroupNaming.POD_UID)
            .withPriority(pod("ns/p").build());
    assertThat(none.priority()).isNull();
  }

  @Test
  void withPriority_neverOverridesTheSpec_andLeavesAnUnknownClassUnset() {
    Pod explicit = pod("ns/p").priorityClassName("high").priority(3).build();
    assertThat(admission().withPriority(explicit)).isSameAs(explicit);
    Pod unknown = pod("ns/p").priorityClassName("nope").build();
    assertThat(admission().withPriority(unknown)).isSameAs(unknown);
  }

  @Test
  void withPriority_ofTwoClassesWithOneName_theLaterCounts() {
    Admission a =
        new Admission(
            List.of(HIGH, new PriorityClass("high", 7, false)),
            Map.of(),
            ImplicitGroupNaming.POD_UID);
    assertThat(a.withPriority(pod("ns/p").priorityClassName("high").build()).priority())
        .isEqualTo(7);
  }

  @Test
  void admit_podOfThisSchedulerWithoutGroup_joinsItsImplicitGroup() {
    Map<String, PodGroup> groups = new LinkedHashMap<>();
    Pod p = admission().admit(pod("ns/p").uid("u1").build(), true, groups);

    assertThat(p.metadata().annotations()).containsEntry(Admission.GROUP_ANNOTATION, "podgroup-u1");
    assertThat(p.priority()).isEqualTo(10);
    assertThat(groups).containsOnlyKeys("ns/podgroup-u1");
  }

  @Test
  void admit_podOfAnotherScheduler_getsAPriorityButNoGroup() {
    Map<String, PodGroup> groups = new LinkedHashMap<>();
    Pod p =
        admission().admit(pod("ns/p").schedulerName("default-scheduler").build(), false, groups);

    assertThat(p.metadata().annotations()).doesNotContainKey(Admission.GROUP_ANNOTATION);
    assertThat(p.priority()).isEqualTo(10);
    assertThat(groups).isEmpty();
  }

  @Test
  void admit_podNamingAGroup_keepsIt_butAnEmptyNameCountsAsNone() {
    Map<String, PodGroup> groups = new LinkedHashMap<>();
    Pod named =
        admission()
            .admit(pod("ns/p").annotation(Admission.GROUP_ANNOTATION, "pg").build(), true, groups);
    assertThat(named.metadata().annotations()).containsEntry(Admission.GROUP_ANNOTATION, "pg");
    assertThat(groups).isEmpty();

    Pod empty =
        admission()
            .admit(
                pod("ns/q").uid("uq").annotation(Admission.GROUP_ANNOTATION, "").build(),
                true,
                groups);
    assertThat(empty.metadata().annotations())
        .containsEntry(Admission.GROUP_ANNOTATION, "podgroup-uq");
    assertThat(groups).containsOnlyKeys("ns/podgroup-uq");
  }

  @Test
  void admit_podsOfOneController_shareTheFirstPodsGroup_whenNamedAfterTheController() {
    Map<String, PodGroup> groups = new LinkedHashMap<>();
    Admission a = admission(ImplicitGroupNaming.CONTROLLER_UID);
    Pod first =
        a.admit(pod("ns/a").owner("ReplicaSet", "rs").requests("cpu", "1").build(), true, groups);
    Pod second =
        a.admit(pod("ns/b").owner("ReplicaSet", "rs").requests("cpu", "2").build(), true, groups);

    assertThat(first.metadata().annotations())
        .containsEntry(Admission.GROUP_ANNOTATION, "podgroup-rs-uid");
    assertThat(second.metadata().annotations())
        .containsEntry(Admission.GROUP_ANNOTATION, "podgroup-rs-uid");
    assertThat(groups).containsOnlyKeys("ns/podgroup-rs-uid");
    assertThat(groups.get("ns/podgroup-rs-uid").minResources())
        .containsExactly(Map.entry("cpu", Quantity.parse("1")));
  }

  @Test
  void admit_anExistingGroupOfTheImplicitName_isKept() {
    PodGroup existing =
        new PodGroup(
            ObjectMeta.named("ns", "podgroup-u1"), "q", 3, null, null, "", "Running", null);
    Map<String, PodGroup> groups = new LinkedHashMap<>(Map.of(existing.key(), existing));
    admission().admit(pod("ns/p").uid("u1").build(), true, groups);
    assertThat(groups).containsExactly(Map.entry(existing.key(), existing));
  }

  @Test
  void implicitGroup_isWhatVolcanosPodGroupControllerBuilds() {
    Instant created = Instant.parse("2026-01-02T03:04:05Z");
    Pod p =
        pod("ns/p")
            .uid("u1")
            .created(created)
            .priorityClassName("high")
            .annotation(Admission.QUEUE_ANNOTATION, "q1")
            .annotation("volcano.sh/preemptable", "false")
            .annotation("example.com/other", "x")
            .label("volcano.sh/label", "not copied")
            .requests("cpu", "500m", "memory", "1Gi")
            .build();

    PodGroup pg = admission().implicitGroup(p);

    assertThat(pg.metadata().name()).isEqualTo("podgroup-u1");
    assertThat(pg.metadata().namespace()).isEqualTo("ns");
    assertThat(pg.metadata().creationTimestamp()).isEqualTo(created);
    assertThat(pg.metadata().annotations())
        .containsExactly(Map.entry("volcano.sh/preemptable", "false"));
    assertThat(pg.metadata().labels()).isEmpty();
    assertThat(pg.metadata().ownerReferences())
        .containsExactly(new OwnerReference("v1", "Pod", "p", "u1", true));
    assertThat(pg.queue()).isEqualTo("q1");
    assertThat(pg.minMember()).isEqualTo(1);
    assertThat(pg.minResources())
        .containsOnly(
            Map.entry("cpu", Quantity.parse("500m")), Map.entry("memory", Quantity.parse("1Gi")));
    assertThat(pg.priorityClassName()).isEqualTo("high");
    assertThat(pg.phase()).isEqualTo("Pending");
    assertThat(pg.conditions()).isEmpty();
  }

  @Test
  void implicitGroup_withoutQueueAnnotation_isInTheDefaultQueue_ownedByTheController() {
    Pod p = pod("ns/p").uid("u1").owner("Job", "j").build();
    PodGroup pg = admission().implicitGroup(p);
    assertThat(pg.queue()).isEqualTo(Admission.DEFAULT_QUEUE);
    assertThat(pg.metadata().ownerReferences())
        .containsExactly(new OwnerReference("v1", "Job", "j", "j-uid", true));
    // Named after the pod all the same: the naming is the caller's choice.
    assertThat(pg.metadata().name()).isEqualTo("podgroup-u1");
  }

  @Test
  void withDefaultQueues_addsAnOpenDefaultOnlyWhenThereAreNone() {
    List<Queue> none = Admission.withDefaultQueues(List.of(), false);
    assertThat(none).extracting(Queue::name).containsExactly("default");
    assertThat(none.get(0).state()).isEqualTo("Open");
    assertThat(none.get(0).weight()).isEqualTo(1);

    Queue q1 = Admission.openQueue("q1");
    assertThat(Admission.withDefaultQueues(List.of(q1), false)).containsExactly(q1);
  }

  @Test
  void withDefaultQueues_inHierarchicalMode_addsRootOnceAfterTheOthers() {
    assertThat(Admission.withDefaultQueues(List.of(), true))
        .extracting(Queue::name)
        .containsExactly("default", "root");
    Queue q1 = Admission.openQueue("q1");
    assertThat(Admission.withDefaultQueues(List.of(q1), true))
        .extracting(Queue::name)
        .containsExactly("q1", "root");
    Queue root = Admission.openQueue("root");
    assertThat(Admission.withDefaultQueues(List.of(root, q1), true)).containsExactly(root, q1);
  }
}
