package dev.caldera.framework.internal.session;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.extension.Status;
import dev.caldera.api.model.Pod;
import org.junit.jupiter.api.Test;

/** Which tasks the kube-scheduler order of reasons has to look at. */
class FitErrorStoreTest {

  private static TaskState task(String key) {
    Pod p = pod(key).requests("cpu", "1").build();
    return new TaskState(p, PodDigests.digest(p));
  }

  @Test
  void noFitErrors_noTaskToLookUp() {
    assertThat(new FitErrorStore().tasksWithUnresolvableErrors()).isEmpty();
  }

  @Test
  void onlyTasksSomeNodeExcludesForGood_areLookedUp() {
    FitErrorStore store = new FitErrorStore();
    TaskState full = task("ns/full");
    TaskState selected = task("ns/selected");
    store.record(full, "n1", Status.unschedulable("Insufficient cpu"));
    store.record(full, "n2", Status.unschedulable("Insufficient memory"));
    store.record(selected, "n1", Status.unschedulable("Insufficient cpu"));
    store.record(selected, "n2", Status.unresolvable("node(s) didn't match Pod's node affinity"));

    assertThat(store.tasksWithUnresolvableErrors()).containsExactly(selected.uid());
  }
}
