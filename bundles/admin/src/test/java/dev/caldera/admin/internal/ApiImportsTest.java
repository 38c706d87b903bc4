package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

class ApiImportsTest {

  private static final Map<String, Version> EXPORTS =
      Map.of(
          "dev.caldera.api", Version.parseVersion("1.4.0"),
          "dev.caldera.api.model", Version.parseVersion("1.2.0"));

  @Test
  void aPluginBuiltAgainstThisOrAnOlderMinorApi_fits() {
    assertThat(
            ApiImports.mismatch(
                "dev.caldera.api;version=\"[1.4,2)\",dev.caldera.api.model;version=\"[1.0,2)\","
                    + "org.osgi.framework;version=\"[1.10,2)\"",
                EXPORTS))
        .isEmpty();
  }

  @Test
  void aPluginBuiltForTheNextMajorApi_namesBothVersions() {
    assertThat(
            ApiImports.mismatch(
                "org.osgi.framework;version=\"[1.10,2)\",dev.caldera.api;version=\"[2.0,3)\"",
                EXPORTS))
        .hasValue(
            "was built for another Caldera API: it imports dev.caldera.api version [2.0.0,3.0.0)"
                + " and this Caldera exports dev.caldera.api 1.4.0; build it against caldera-api"
                + " of this Caldera (or one whose dev.caldera.api is in that range)");
  }

  @Test
  void aPluginBuiltForANewerMinorApi_isRefused() {
    assertThat(ApiImports.mismatch("dev.caldera.api.model;version=\"[1.3,2)\"", EXPORTS))
        .hasValueSatisfying(
            why -> assertThat(why).contains("[1.3.0,2.0.0)", "dev.caldera.api.model 1.2.0"));
  }

  @Test
  void anApiPackageThisCalderaDoesNotExport_isRefused_anOptionalOneIsNot() {
    assertThat(ApiImports.mismatch("dev.caldera.api.gone;version=\"[1.0,2)\"", EXPORTS))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains(
                        "imports dev.caldera.api.gone version [1.0,2)",
                        "exports dev.caldera.api 1.4.0"));
    assertThat(
            ApiImports.mismatch(
                "dev.caldera.api.gone;resolution:=optional;version=\"[1.0,2)\"", EXPORTS))
        .isEmpty();
  }

  @Test
  void unknownExports_orNoImports_refuseNothing() {
    assertThat(ApiImports.mismatch("dev.caldera.api;version=\"[9,10)\"", Map.of())).isEmpty();
    assertThat(ApiImports.mismatch(null, EXPORTS)).isEmpty();
  }
}
