package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.Storage;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorageChecksTest {

  private final List<SessionResult.Event> events = new ArrayList<>();

  @Test
  void usable_leavesOutAClaimOfNegativeSize_withAnEventNamingTheField() {
    Storage storage =
        new Storage(
            List.of(volume("pv1", "10Gi", "Available", null)),
            List.of(claim("team/bad", "-5Gi", "", "Pending"), claim("team/ok", "1Gi", "", "")),
            null,
            null);

    Storage usable = StorageChecks.usable(storage, events);

    assertThat(usable.claims()).extracting(PersistentVolumeClaim::key).containsExactly("team/ok");
    assertThat(usable.volumes()).hasSize(1);
    assertThat(events)
        .extracting(SessionResult.Event::kind, SessionResult.Event::object, e -> e.reason())
        .containsExactly(
            tuple("PersistentVolumeClaim", "team/bad", SessionRunner.RESOURCE_OUT_OF_RANGE));
    assertThat(events.get(0).message())
        .isEqualTo(
            "PersistentVolumeClaim team/bad is not used: spec.resources.requests.storage: -5Gi is"
                + " negative; expected a quantity of at least 0");
  }

  @Test
  void usable_leavesOutAVolumeOfNegativeCapacityOrUnknownPhase() {
    Storage storage =
        new Storage(
            List.of(
                volume("negative", "-1", "Available", null),
                volume("odd", "10Gi", "Attached", null),
                volume("fine", "10Gi", "Released", null)),
            null,
            null,
            null);

    Storage usable = StorageChecks.usable(storage, events);

    assertThat(usable.volumes()).extracting(PersistentVolume::name).containsExactly("fine");
    assertThat(events)
        .extracting(SessionResult.Event::message)
        .containsExactly(
            "PersistentVolume negative is not used: spec.capacity.storage: -1 is negative; expected"
                + " a quantity of at least 0",
            "PersistentVolume odd is not used: status.phase: \"Attached\" is not a volume phase;"
                + " expected one of Pending, Available, Bound, Released, Failed");
    assertThat(events.get(1).reason()).isEqualTo(SessionRunner.UNKNOWN_PHASE);
  }

  @Test
  void usable_leavesOutAClaimOfUnknownPhase() {
    Storage storage =
        new Storage(null, List.of(claim("team/c", "1Gi", "", "Available")), null, null);

    assertThat(StorageChecks.usable(storage, events).claims()).isEmpty();
    assertThat(events)
        .extracting(SessionResult.Event::message)
        .containsExactly(
            "PersistentVolumeClaim team/c is not used: status.phase: \"Available\" is not a claim"
                + " phase; expected one of Pending, Bound, Lost");
  }

  @Test
  void usable_keepsASecondClaimOfABoundVolume_andSaysItStaysPending() {
    Storage storage =
        new Storage(
            List.of(volume("pv1", "10Gi", "Bound", new PersistentVolume.ClaimRef("team", "a", ""))),
            List.of(claim("team/a", "1Gi", "pv1", "Bound"), claim("team/b", "1Gi", "pv1", "Bound")),
            null,
            null);

    Storage usable = StorageChecks.usable(storage, events);

    assertThat(usable).isSameAs(storage);
    assertThat(events)
        .extracting(SessionResult.Event::object, SessionResult.Event::reason)
        .containsExactly(tuple("team/b", SessionRunner.VOLUME_HELD_BY_ANOTHER_CLAIM));
    assertThat(events.get(0).message())
        .isEqualTo(
            "PersistentVolumeClaim team/b stays pending: spec.volumeName: volume pv1 is bound to"
                + " claim team/a; expected a volume no other claim holds");
  }

  @Test
  void usable_aClaimNamingAVolumeReservedForAnotherByClaimRef_staysPending() {
    Storage storage =
        new Storage(
            List.of(volume("pv1", "10Gi", "Bound", new PersistentVolume.ClaimRef("team", "x", ""))),
            List.of(claim("team/b", "1Gi", "pv1", "Pending")),
            null,
            null);

    StorageChecks.usable(storage, events);

    assertThat(events)
        .extracting(SessionResult.Event::message)
        .containsExactly(
            "PersistentVolumeClaim team/b stays pending: spec.volumeName: volume pv1 is reserved"
                + " for claim team/x by its spec.claimRef; expected a volume no other claim holds");
  }

  @Test
  void usable_validStorage_isReturnedAsIsWithoutEvents() {
    Storage storage =
        new Storage(
            List.of(volume("pv1", "10Gi", "Bound", new PersistentVolume.ClaimRef("team", "a", ""))),
            List.of(claim("team/a", "1Gi", "pv1", "Bound"), claim("team/n", "0", "", "Pending")),
            null,
            null);

    assertThat(StorageChecks.usable(storage, events)).isSameAs(storage);
    assertThat(events).isEmpty();
  }

  private static PersistentVolume volume(
      String name, String capacity, String phase, PersistentVolume.ClaimRef ref) {
    return new PersistentVolume(
        ObjectMeta.named(null, name),
        Quantity.parse(capacity),
        List.of("ReadWriteOnce"),
        "local",
        null,
        ref,
        null,
        null,
        phase,
        null);
  }

  private static PersistentVolumeClaim claim(
      String key, String request, String volumeName, String phase) {
    String[] nsName = key.split("/");
    return new PersistentVolumeClaim(
        ObjectMeta.named(nsName[0], nsName[1]),
        "local",
        List.of("ReadWriteOnce"),
        Quantity.parse(request),
        volumeName,
        null,
        phase,
        null);
  }
}
