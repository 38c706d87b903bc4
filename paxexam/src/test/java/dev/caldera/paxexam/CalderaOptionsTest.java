package dev.caldera.paxexam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.options.UrlProvisionOption;

class CalderaOptionsTest {

  /** The test class path, and this module's jar (here its classes are a directory). */
  private static Map<String, Path> bundles() {
    Map<String, Path> bundles = new HashMap<>(CalderaOptions.bundlesOnClassPath());
    bundles.put("caldera-paxexam", Path.of("target/caldera-paxexam.jar"));
    return bundles;
  }

  @Test
  void theContainersBundles_comeFromTheTestClassPath_withTheNamedPlugins() {
    Option[] options = CalderaOptions.caldera(bundles(), null, "gang");

    assertThat(options)
        .filteredOn(UrlProvisionOption.class::isInstance)
        .extracting(o -> ((UrlProvisionOption) o).getURL())
        .anySatisfy(url -> assertThat(url).contains("org.apache.felix.scr-"))
        .anySatisfy(url -> assertThat(url).contains("caldera-framework-"))
        .anySatisfy(url -> assertThat(url).contains("caldera-sim-"))
        .anySatisfy(url -> assertThat(url).contains("caldera-plugin-gang-"))
        .noneSatisfy(url -> assertThat(url).contains("caldera-plugin-binpack-"));
  }

  @Test
  void aPluginThatIsNotShipped_isAnErrorNamingIt() {
    assertThatThrownBy(() -> CalderaOptions.caldera(bundles(), null, "nosuch"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "no bundle caldera-plugin-nosuch on the test class path; expected it as a shipped"
                + " plugin");
  }

  @Test
  void bundleUnderTest_withoutItsProperty_saysWhichPropertyToSet() {
    System.clearProperty(CalderaOptions.BUNDLE_UNDER_TEST);
    assertThatThrownBy(CalderaOptions::bundleUnderTest)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("system property caldera.paxexam.bundle is not set");
  }
}
