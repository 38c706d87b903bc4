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
import org.junit.jupiter.api.Test;

class ResourceViewTest {

  @Test
  void aView_hasNoMethodThatChangesIt_orHandsOutAMutableVector() {
    List<String> names = new ArrayList<>();
    for (Method m : ResourceView.class.getMethods()) {
      names.add(m.getName());
      assertThat(
              m.getReturnType().isArray()
                  ? m.getReturnType().getComponentType()
                  : m.getReturnType())
          .as("%s returns a contract, not an implementation", m.getName())
          .satisfies(
              t ->
                  assertThat(
                          t.isPrimitive()
                              || t.isInterface()
                              || t.getPackageName().startsWith("java.")
                              || t == Dimension.class
                              || t == Quantity.class)
                      .isTrue());
    }
    assertThat(names)
        .contains("lessEqual", "get", "toList", "valueKey")
        .doesNotContain(
            "copy",
            "diff",
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
  void theSessionViews_handOutResourcesAsViewsOnly() {
    List<String> implementations = new ArrayList<>();
    for (Class<?> view :
        List.of(Session.class, TaskInfo.class, JobInfo.class, NodeInfo.class, QueueInfo.class)) {
      for (Method m : view.getMethods()) {
        Class<?> type = m.getReturnType();
        if (ResourceView.class.isAssignableFrom(type) && type != ResourceView.class) {
          implementations.add(view.getSimpleName() + "." + m.getName());
        }
      }
    }
    assertThat(implementations).isEmpty();
  }
}
