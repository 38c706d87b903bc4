package dev.caldera.admin.internal.osgi;

import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/** A framework with no bundle and a plugin jar, for the deploy-directory guard and audit. */
final class DeployFixtures {

  private DeployFixtures() {}

  /** A BundleContext that names {@code deploy} as FileInstall's directory and lists no bundle. */
  static BundleContext frameworkWithNoBundle(Path deploy) {
    return (BundleContext)
        Proxy.newProxyInstance(
            DeployFixtures.class.getClassLoader(),
            new Class<?>[] {BundleContext.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getProperty" ->
                      "felix.fileinstall.dir".equals(args[0]) ? deploy.toString() : null;
                  case "getBundles" -> new Bundle[0];
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** A scheduler monitor that only records what is reported to it. */
  static SchedulerMonitor monitor(List<LoopEvent> reports) {
    return (SchedulerMonitor)
        Proxy.newProxyInstance(
            DeployFixtures.class.getClassLoader(),
            new Class<?>[] {SchedulerMonitor.class},
            (proxy, method, args) -> {
              if (method.getName().equals("report")) {
                reports.add((LoopEvent) args[0]);
                return null;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  /** A plugin bundle jar of {@code example-plugin} 2.0.0 with one 4 KB entry. */
  static byte[] pluginJar() throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
    m.getMainAttributes().putValue("Bundle-SymbolicName", "example-plugin");
    m.getMainAttributes().putValue("Bundle-Version", "2.0.0");
    m.getMainAttributes()
        .putValue(
            "Provide-Capability",
            "osgi.service;objectClass:List<String>=\"dev.caldera.api.PluginFactory\"");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarOutputStream j = new JarOutputStream(out, m)) {
      j.putNextEntry(new JarEntry("example/Plugin.class"));
      j.write(new byte[4096]);
      j.closeEntry();
    }
    return out.toByteArray();
  }
}
