package dev.caldera.api.resource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResourceViewTest {

  /** Views that compute a new resource for the caller (not session state). */
  private static final Set<String> NEW_RESOURCES =
      Set.of("futureIdle", "elasticResources", "inqueueResources");

  @Test
  void aView_hasNoMethodThatChangesIt() {
    List<String> names = new ArrayList<>();
    for (Method m : ResourceView.class.getMethods()) {
      names.add(m.getName());
    }
    assertThat(names)
        .contains("copy", "lessEqual", "get", "toList")
        .doesNotContain(
            "add",
            "sub",
            "set",
            "remove",
            "multiply",
            "setMax",
            "setMaxTaskNum",
            "minDimension",
            "fitDelta");
  }

  @Test
  void theSessionViews_handOutReadOnlyResources() {
    List<String> mutable = new ArrayList<>();
    for (Class<?> view :
        List.of(Session.class, TaskInfo.class, JobInfo.class, NodeInfo.class, QueueInfo.class)) {
      for (Method m : view.getMethods()) {
        if (m.getReturnType() == Resource.class && !NEW_RESOURCES.contains(m.getName())) {
          mutable.add(view.getSimpleName() + "." + m.getName());
        }
      }
    }
    assertThat(mutable).isEmpty();
  }

  @Test
  void aCopy_isTheCallersOwn() {
    Resource r = Resource.of(1000, 2048);
    ResourceView view = r;

    Resource mine = view.copy().add(Resource.of(500, 0));

    assertThat(view.milliCpu()).isEqualTo(1000);
    assertThat(mine.milliCpu()).isEqualTo(1500);
  }
}
