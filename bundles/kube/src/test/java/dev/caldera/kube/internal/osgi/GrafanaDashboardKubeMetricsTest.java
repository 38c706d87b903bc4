package dev.caldera.kube.internal.osgi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.api.host.MetricsSource;
import dev.caldera.kube.KubeCounters;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The kube bundle's metrics that {@code runtime/deploy/grafana-dashboard.json} queries ({@code
 * caldera_kube_*}, {@code caldera_leader*}) are families the bundle exports.
 */
class GrafanaDashboardKubeMetricsTest {

  @Test
  void everyKubeMetricTheDashboardQueries_isAFamilyOfTheBundle() throws Exception {
    KubeCounters zeros =
        (KubeCounters)
            Proxy.newProxyInstance(
                KubeCounters.class.getClassLoader(),
                new Class<?>[] {KubeCounters.class},
                (proxy, method, args) -> method.getReturnType() == long.class ? 0L : null);
    Set<String> families =
        new KubeMetrics(zeros, () -> null, true)
            .metrics().stream().map(MetricsSource.Family::name).collect(Collectors.toSet());
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(
                Path.of(System.getProperty("caldera.deploy.dir", "../../runtime/deploy"))
                    .resolve("grafana-dashboard.json")
                    .toFile());
    Set<String> queried = new TreeSet<>();
    Matcher m =
        Pattern.compile("\\bcaldera_(kube_[a-z_]+|leader[a-z_]*)").matcher(dashboard.toString());
    while (m.find()) {
      queried.add(m.group());
    }

    assertThat(queried).contains("caldera_kube_binds_total", "caldera_leader");
    assertThat(families).containsAll(queried);
  }
}
