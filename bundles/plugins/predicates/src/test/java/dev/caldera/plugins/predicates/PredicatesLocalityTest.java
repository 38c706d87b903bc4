package dev.caldera.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.testkit.FakeTask;
import org.junit.jupiter.api.Test;

/** The predicate's locality key: what it reads of a task, or null when it reads more. */
class PredicatesLocalityTest extends PredicatesFixture {

  private Object key(FakeTask task) {
    NodeLocality locality = extensions().locality(ExtensionPoint.PREDICATE);
    prePredicate(task);
    return locality.taskKey(task);
  }

  @Test
  void podsOfOneShapeShareAKey_andEachFilteredFieldSeparatesThem() {
    node("n1");
    Object shape = key(pod("a").nodeSelector("disk", "ssd").hostPort(80));

    assertThat(key(pod("b").nodeSelector("disk", "ssd").hostPort(80))).isEqualTo(shape);
    assertThat(key(pod("c").nodeSelector("disk", "hdd").hostPort(80))).isNotEqualTo(shape);
    assertThat(key(pod("d").nodeSelector("disk", "ssd").hostPort(81))).isNotEqualTo(shape);
    assertThat(
            key(
                pod("e")
                    .nodeSelector("disk", "ssd")
                    .hostPort(80)
                    .requiredNodeAffinity("zone", "In", "a")))
        .isNotEqualTo(shape);
    assertThat(
            key(
                pod("f")
                    .nodeSelector("disk", "ssd")
                    .hostPort(80)
                    .annotation(TaskFacts.TEMPLATE_UID_ANNOTATION, "t1")))
        .isNotEqualTo(shape);
  }

  @Test
  void aPodWithRequiredInterPodAffinity_hasNoKey() {
    node("n1");
    assertThat(key(pod("a").requiredPodAffinity(HOSTNAME, "app", "web"))).isNull();
  }
}
