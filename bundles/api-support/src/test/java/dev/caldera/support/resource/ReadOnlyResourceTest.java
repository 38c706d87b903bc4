package dev.caldera.support.resource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceView;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadOnlyResourceTest {

  private static Resource gpuNode() {
    return Resource.fromList(
        Map.of(
            "cpu",
            Quantity.parse("4"),
            "memory",
            Quantity.parse("8Gi"),
            "nvidia.com/gpu",
            Quantity.parse("2")));
  }

  @Test
  void view_cannotBeCastToTheResourceBehindIt() {
    ResourceView view = gpuNode().view();

    assertThat(view).isNotInstanceOf(Resource.class).isInstanceOf(ReadOnlyResource.class);
  }

  @Test
  void view_isOneObjectPerResourceAndReadsItLive() {
    Resource idle = gpuNode();
    ResourceView view = idle.view();

    idle.sub(Resource.of(1000, 0));

    assertThat(idle.view()).isSameAs(view);
    assertThat(view.milliCpu()).isEqualTo(3000);
  }

  @Test
  void view_answersAsTheResourceDoes() {
    Resource node = gpuNode();
    Resource request = Resource.of(1000, 1024);
    ResourceView view = node.view();

    assertThat(request.fits(view)).isTrue();
    assertThat(request.view().fits(view)).isTrue();
    assertThat(view.lessEqual(request, Dimension.ZERO)).isFalse();
    assertThat(view.resourceNames()).isEqualTo(node.resourceNames());
    assertThat(view.toList()).isEqualTo(node.toList());
    assertThat(view.valueKey()).isEqualTo(node.valueKey());
    assertThat(view.deepEquals(node)).isTrue();
    assertThat(node.deepEquals(view)).isTrue();
    assertThat(Resource.empty().add(view).deepEquals(node)).isTrue();
    assertThat(view.toString()).isEqualTo(node.toString());
  }

  @Test
  void copy_ofAViewIsTheCallersOwn() {
    Resource node = gpuNode();

    Resource mine = Resource.copyOf(node.view()).add(Resource.of(500, 0));

    assertThat(mine.milliCpu()).isEqualTo(4500);
    assertThat(node.milliCpu()).isEqualTo(4000);
  }
}
