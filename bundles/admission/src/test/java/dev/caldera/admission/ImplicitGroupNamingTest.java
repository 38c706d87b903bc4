package dev.caldera.admission;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImplicitGroupNamingTest {

  @Test
  void controllerUid_namesAfterTheControllingOwner() {
    Pod owned = pod("ns/p").uid("pod-uid").owner("ReplicaSet", "rs").build();
    assertThat(ImplicitGroupNaming.CONTROLLER_UID.groupName(owned)).isEqualTo("podgroup-rs-uid");
  }

  @Test
  void controllerUid_skipsOwnersThatAreNotControllersOrHaveNoUid_thenUsesThePod() {
    Pod p =
        withOwners(
            pod("ns/p").uid("pod-uid").build(),
            new OwnerReference("v1", "ConfigMap", "cm", "cm-uid", false),
            new OwnerReference("apps/v1", "ReplicaSet", "rs", "", true));
    assertThat(ImplicitGroupNaming.CONTROLLER_UID.groupName(p)).isEqualTo("podgroup-pod-uid");
  }

  @Test
  void podUid_namesAfterThePodEvenWithAController() {
    Pod owned = pod("ns/p").uid("pod-uid").owner("ReplicaSet", "rs").build();
    assertThat(ImplicitGroupNaming.POD_UID.groupName(owned)).isEqualTo("podgroup-pod-uid");
  }

  @Test
  void podUid_ofAPodWithoutUid_isNamespaceDashName() {
    assertThat(ImplicitGroupNaming.POD_UID.groupName(pod("ns2/lone").build()))
        .isEqualTo("podgroup-ns2-lone");
  }

  private static Pod withOwners(Pod p, OwnerReference... owners) {
    return PodCopies.withMetadata(
        p,
        new ObjectMeta(
            p.name(), p.namespace(), p.metadata().uid(), null, null, null, null, List.of(owners)));
  }
}
