package dev.caldera.runtime.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kube bundle connects while the other bundles start (issue 12, start-up): Configuration Admin,
 * SCR and the kube bundle start first, the others after them in the order they were installed.
 */
class OsgiLauncherStartOrderTest {

  @Test
  void configAdminScrAndTheKubeBundleStartFirst_theOthersKeepTheirOrder() {
    List<String> installed =
        new ArrayList<>(
            List.of(
                "caldera-admission",
                "caldera-api",
                "caldera-framework",
                "caldera-kube",
                "com.fasterxml.jackson.core.jackson-databind",
                "org.apache.felix.configadmin",
                "org.apache.felix.fileinstall",
                "org.apache.felix.scr",
                "org.osgi.util.promise"));
    installed.sort(Comparator.comparingInt(OsgiLauncher::startRank));
    assertThat(installed)
        .containsExactly(
            "org.apache.felix.configadmin",
            "org.apache.felix.scr",
            "caldera-kube",
            "caldera-admission",
            "caldera-api",
            "caldera-framework",
            "com.fasterxml.jackson.core.jackson-databind",
            "org.apache.felix.fileinstall",
            "org.osgi.util.promise");
  }
}
