package dev.caldera.kube;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * A replica's plugin registry in the plugin bundle tests, standing for Felix with FileInstall: the
 * plugins on the class path (the shipped ones) plus those of each jar in a deploy directory, read
 * again whenever the directory's jars change (a jar added, replaced or deleted is loaded, reloaded
 * or dropped, as FileInstall installs, updates or uninstalls).
 */
final class DeployDirRegistry implements PluginRegistry {

  private final Path dir;
  private final PluginRegistry shipped = new ServiceLoaderPluginRegistry();
  private Map<String, String> seen = Map.of();
  private Map<String, PluginFactory> deployed = Map.of();
  private Map<String, String> fileOf = Map.of();

  DeployDirRegistry(Path dir) {
    this.dir = dir;
  }

  /** The file's plugin names once loaded, if it was. */
  synchronized Optional<String> loaded(String fileName) {
    refresh();
    return fileOf.entrySet().stream()
        .filter(e -> e.getValue().equals(fileName))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  private synchronized void refresh() {
    Map<String, String> now = new TreeMap<>();
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.jar")) {
      for (Path p : jars) {
        now.put(p.getFileName().toString(), Files.getLastModifiedTime(p) + "/" + Files.size(p));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (now.equals(seen)) {
      return;
    }
    Map<String, PluginFactory> plugins = new TreeMap<>();
    Map<String, String> files = new TreeMap<>();
    for (String file : now.keySet()) {
      for (PluginFactory f : load(dir.resolve(file))) {
        plugins.put(f.name(), f);
        files.put(f.name(), file);
      }
    }
    seen = now;
    deployed = plugins;
    fileOf = files;
  }

  private static java.util.List<PluginFactory> load(Path jar) {
    java.util.List<PluginFactory> out = new java.util.ArrayList<>();
    try (JarFile j = new JarFile(jar.toFile())) {
      ZipEntry services = j.getEntry("META-INF/services/" + PluginFactory.class.getName());
      if (services == null) {
        return out;
      }
      String names = new String(j.getInputStream(services).readAllBytes(), StandardCharsets.UTF_8);
      URLClassLoader loader =
          new URLClassLoader(
              new URL[] {jar.toUri().toURL()}, DeployDirRegistry.class.getClassLoader());
      for (String name : names.strip().split("\\s+")) {
        out.add((PluginFactory) loader.loadClass(name).getDeclaredConstructor().newInstance());
      }
    } catch (IOException | ReflectiveOperationException e) {
      throw new IllegalStateException("cannot load " + jar, e);
    }
    return out;
  }

  @Override
  public synchronized Optional<PluginFactory> plugin(String name) {
    refresh();
    PluginFactory f = deployed.get(name);
    return f != null ? Optional.of(f) : shipped.plugin(name);
  }

  @Override
  public Optional<Action> action(String name) {
    return shipped.action(name);
  }

  @Override
  public synchronized SortedSet<String> pluginNames() {
    refresh();
    SortedSet<String> names = new TreeSet<>(shipped.pluginNames());
    names.addAll(deployed.keySet());
    return names;
  }

  @Override
  public SortedSet<String> actionNames() {
    return shipped.actionNames();
  }
}
