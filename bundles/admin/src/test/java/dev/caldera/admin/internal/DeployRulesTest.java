package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Version;

class DeployRulesTest {

  private static final String PLUGIN_CAPABILITY =
      "osgi.service;objectClass:List<String>=\"dev.caldera.api.PluginFactory\"";

  private static byte[] jar(Map<String, String> headers) throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
    headers.forEach(m.getMainAttributes()::putValue);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(out, m)) {
      j.flush();
    }
    return out.toByteArray();
  }

  private static final List<DeployRules.Installed> INSTALLED =
      List.of(
          new DeployRules.Installed(
              "caldera-plugin-capacity-card",
              Version.parseVersion("0.1.0.SNAPSHOT"),
              "file:/opt/caldera/deploy/caldera-plugin-capacity-card-0.1.0-SNAPSHOT.jar"),
          new DeployRules.Installed(
              "caldera-framework", Version.parseVersion("0.1.0.SNAPSHOT"), "file:/b/fw.jar"));

  @Test
  void aCopyOfAnInstalledPluginIsRefused_theOriginalAtItsOwnPlaceIsNot() throws IOException {
    byte[] copy =
        jar(
            Map.of(
                "Bundle-SymbolicName", "caldera-plugin-capacity-card",
                "Bundle-Version", "0.1.0.SNAPSHOT",
                "Provide-Capability", PLUGIN_CAPABILITY));

    assertThat(DeployRules.refusal("cc-copy.jar", copy, INSTALLED))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains(
                        "caldera-plugin-capacity-card 0.1.0.SNAPSHOT is already installed from"
                            + " file:/opt/caldera/deploy/caldera-plugin-capacity-card-0.1.0-SNAPSHOT.jar"));
    assertThat(
            DeployRules.refusal("caldera-plugin-capacity-card-0.1.0-SNAPSHOT.jar", copy, INSTALLED))
        .isEmpty();
  }

  @Test
  void anotherVersionOfAnInstalledPluginIsAccepted() throws IOException {
    byte[] v9 =
        jar(
            Map.of(
                "Bundle-SymbolicName", "caldera-plugin-capacity-card",
                "Bundle-Version", "9.0.0.variant",
                "Provide-Capability", PLUGIN_CAPABILITY));

    assertThat(DeployRules.refusal("cc-v9.jar", v9, INSTALLED)).isEmpty();
  }

  @Test
  void aPluginBuiltForAnotherMajorApi_isRefused_namingBothVersions() throws IOException {
    byte[] plugin =
        jar(
            Map.of(
                "Bundle-SymbolicName", "dev.example.plugin",
                "Bundle-Version", "1.0.0",
                "Import-Package", "dev.caldera.api;version=\"[2.0,3)\"",
                "Provide-Capability", PLUGIN_CAPABILITY));
    Map<String, Version> exports = Map.of("dev.caldera.api", Version.parseVersion("1.4.0"));

    assertThat(DeployRules.refusal("plugin.jar", plugin, INSTALLED, exports))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .startsWith("dev.example.plugin 1.0.0 was built for another Caldera API")
                    .contains("version [2.0.0,3.0.0)", "exports dev.caldera.api 1.4.0"));
    assertThat(
            DeployRules.refusal(
                "plugin.jar",
                plugin,
                INSTALLED,
                Map.of("dev.caldera.api", Version.parseVersion("2.1.0"))))
        .isEmpty();
  }

  @Test
  void aFragmentIsRefused_evenOfACoreBundle() throws IOException {
    byte[] fragment =
        jar(
            Map.of(
                "Bundle-SymbolicName", "evil.fragment",
                "Fragment-Host", "caldera-framework;bundle-version=0.1.0"));

    assertThat(DeployRules.refusal("f.jar", fragment, INSTALLED))
        .contains(
            "evil.fragment is a fragment (Fragment-Host: caldera-framework); deploy/ takes plugin"
                + " bundles only");
  }

  @Test
  void aBundleThatProvidesNoPluginIsRefused() throws IOException {
    byte[] library = jar(Map.of("Bundle-SymbolicName", "some.library"));

    assertThat(DeployRules.refusal("lib.jar", library, INSTALLED))
        .hasValueSatisfying(why -> assertThat(why).startsWith("some.library is not a plugin"));
  }

  @Test
  void fileNames_plainJarNamesOnly() {
    assertThat(DeployRules.badFileName("caldera-plugin-binpack-0.1.0.jar")).isEmpty();
    assertThat(DeployRules.badFileName("a\nb.jar"))
        .hasValueSatisfying(why -> assertThat(why).contains("\"a?b.jar\"").doesNotContain("\n"));
    assertThat(DeployRules.badFileName("a\u0000.jar")).isPresent();
    assertThat(DeployRules.badFileName("x".repeat(300) + ".jar")).isPresent();
    assertThat(DeployRules.badFileName(".hidden.jar")).isPresent();
    assertThat(DeployRules.badFileName("../x.jar")).isPresent();
    assertThat(DeployRules.badFileName("x.zip")).isPresent();
  }

  @Test
  void damage_findsATruncatedJar_andPassesAWholeOne(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
    byte[] whole =
        jar(
            Map.of(
                "Bundle-SymbolicName",
                "caldera-plugin-x",
                "Provide-Capability",
                PLUGIN_CAPABILITY));
    java.nio.file.Path ok = java.nio.file.Files.write(dir.resolve("ok.jar"), whole);
    java.nio.file.Path cut =
        java.nio.file.Files.write(
            dir.resolve("cut.jar"), java.util.Arrays.copyOf(whole, whole.length - 30));

    assertThat(DeployRules.damage(ok)).isEmpty();
    assertThat(DeployRules.damage(cut))
        .hasValueSatisfying(why -> assertThat(why).startsWith("damaged jar (truncated"));
  }

  @Test
  void removeStaleUploads_deletesTheStagedUploadsAKilledRunLeft_andNothingElse(@TempDir Path deploy)
      throws IOException {
    Files.write(deploy.resolve(".upload-123.part"), new byte[] {1, 2});
    Files.write(deploy.resolve(".upload-456.part"), new byte[0]);
    Files.write(deploy.resolve("plugin.jar"), new byte[] {1});
    Files.write(deploy.resolve("notes.part"), new byte[] {1});

    assertThat(DeployRules.removeStaleUploads(deploy))
        .containsExactly(".upload-123.part", ".upload-456.part");

    try (var left = Files.list(deploy)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("plugin.jar", "notes.part");
    }
    assertThat(DeployRules.removeStaleUploads(deploy.resolve("missing"))).isEmpty();
  }
}
