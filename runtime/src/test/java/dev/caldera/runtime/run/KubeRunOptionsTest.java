package dev.caldera.runtime.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code caldera run --kubeconfig} hands the kube bundle through Configuration Admin. */
class KubeRunOptionsTest {

  private static KubeRunOptions options(boolean websocketWatches) {
    return new KubeRunOptions(
        Path.of("kubeconfig"), List.of("volcano"), false, 2000, 2000, 64, websocketWatches);
  }

  @Test
  void watchesGoOverHttp_unlessKubeWebsocketWatchesIsGiven() {
    assertThat(options(false).properties()).containsEntry("http.watches", true);
    assertThat(options(true).properties()).containsEntry("http.watches", false);
  }
}
