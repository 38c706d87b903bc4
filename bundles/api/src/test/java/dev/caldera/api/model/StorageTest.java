package dev.caldera.api.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.resource.Quantity;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorageTest {

  @Test
  void claimOf_isTheClaimTheVolumesClaimRefNames_evenIfAnotherClaimNamesTheVolume() {
    Storage s =
        new Storage(
            List.of(volume("pv1", new PersistentVolume.ClaimRef("team", "b", ""))),
            List.of(claim("team/a", "pv1"), claim("team/b", "pv1")),
            null,
            null);

    assertThat(s.claimOf("pv1").key()).isEqualTo("team/b");
    assertThat(s.namesVolumeOfAnother(s.claim("team/a"))).isTrue();
    assertThat(s.namesVolumeOfAnother(s.claim("team/b"))).isFalse();
  }

  @Test
  void claimOf_aVolumeWithoutClaimRef_isHeldByTheFirstClaimByKeyThatNamesIt() {
    Storage s =
        new Storage(
            List.of(volume("pv1", null)),
            List.of(claim("team/z", "pv1"), claim("team/m", "pv1")),
            null,
            null);

    assertThat(s.claimOf("pv1").key()).isEqualTo("team/m");
    assertThat(s.namesVolumeOfAnother(s.claim("team/z"))).isTrue();
  }

  @Test
  void claimOf_aClaimRefWithAnotherUid_holdsNoClaim() {
    Storage s =
        new Storage(
            List.of(volume("pv1", new PersistentVolume.ClaimRef("team", "a", "old-uid"))),
            List.of(claim("team/a", "pv1")),
            null,
            null);

    assertThat(s.claimOf("pv1")).isNull();
    assertThat(s.namesVolumeOfAnother(s.claim("team/a"))).isTrue();
  }

  @Test
  void namesVolumeOfAnother_isFalseForAnUnboundClaimAndForAMissingVolume() {
    Storage s =
        new Storage(
            List.of(volume("pv1", null)),
            List.of(claim("team/a", ""), claim("team/b", "gone")),
            null,
            null);

    assertThat(s.claimOf("pv1")).isNull();
    assertThat(s.namesVolumeOfAnother(s.claim("team/a"))).isFalse();
    assertThat(s.namesVolumeOfAnother(s.claim("team/b"))).isFalse();
  }

  private static PersistentVolume volume(String name, PersistentVolume.ClaimRef ref) {
    return new PersistentVolume(
        ObjectMeta.named(null, name),
        Quantity.parse("10Gi"),
        List.of("ReadWriteOnce"),
        "local",
        null,
        ref,
        null,
        null,
        ref == null ? "Available" : "Bound",
        null);
  }

  private static PersistentVolumeClaim claim(String key, String volumeName) {
    String[] nsName = key.split("/");
    return new PersistentVolumeClaim(
        ObjectMeta.named(nsName[0], nsName[1]),
        "local",
        List.of("ReadWriteOnce"),
        Quantity.parse("1Gi"),
        volumeName,
        null,
        volumeName.isEmpty() ? "Pending" : "Bound",
        null);
  }
}
