package dev.caldera.admission;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodCopiesTest {

  private static Pod sample() {
    return pod("ns/p")
        .uid("u1")
        .label("app", "web")
        .annotation("a", "1")
        .owner("Job", "j")
        .priorityClassName("high")
        .requests("cpu", "1")
        .nodeSelector("zone", "z1")
        .specNodeName("n1")
        .nominatedNodeName("n2")
        .build();
  }

  @Test
  void withPriority_changesOnlyPriorityAndPreemptionPolicy() {
    Pod p = sample();
    Pod copy = PodCopies.withPriority(p, 7, "Never");
    assertThat(copy.priority()).isEqualTo(7);
    assertThat(copy.preemptionPolicy()).isEqualTo("Never");
    assertThat(PodCopies.withPriority(copy, p.priority(), p.preemptionPolicy())).isEqualTo(p);
  }

  @Test
  void withAnnotation_addsOrReplacesOne_keepingTheRest() {
    Pod p = sample();
    Pod added = PodCopies.withAnnotation(p, "b", "2");
    assertThat(added.metadata().annotations())
        .containsOnly(Map.entry("a", "1"), Map.entry("b", "2"));
    Pod replaced = PodCopies.withAnnotation(p, "a", "3");
    assertThat(replaced.metadata().annotations()).containsOnly(Map.entry("a", "3"));
    assertThat(PodCopies.withAnnotation(replaced, "a", "1")).isEqualTo(p);
  }

  @Test
  void withDeletionTimestamp_marksThePodTerminating_keepingTheRest() {
    Pod p = sample();
    Instant when = Instant.parse("2026-05-06T07:08:09Z");
    Pod deleting = PodCopies.withDeletionTimestamp(p, when);
    assertThat(deleting.metadata().deletionTimestamp()).isEqualTo(when);
    assertThat(PodCopies.withDeletionTimestamp(deleting, null)).isEqualTo(p);
  }

  @Test
  void withMetadata_replacesOnlyTheMetadata() {
    Pod p = sample();
    ObjectMeta other = ObjectMeta.named("ns", "renamed");
    Pod copy = PodCopies.withMetadata(p, other);
    assertThat(copy.metadata()).isEqualTo(other);
    assertThat(PodCopies.withMetadata(copy, p.metadata())).isEqualTo(p);
  }
}
