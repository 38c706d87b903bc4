package dev.caldera.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The manifests of {@code runtime/deploy/} ({@code crds/}, {@code base/}, {@code overlays/}), each
 * document parsed with fabric8's serialization: a kind fabric8 has a model class for loads as that
 * class, anything else (Volcano's Queue) as a {@code GenericKubernetesResource}.
 */
final class DeployManifests {

  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** The overlays, one per way of installing (docs/kubernetes.md, "Installing"). */
  static final List<String> OVERLAYS = List.of("standalone", "replace-volcano", "beside-volcano");

  private DeployManifests() {}

  /**
   * {@code runtime/deploy/}, as the build passes it (surefire's {@code caldera.deploy.dir}); else
   * found from the module's directory or, for a measuring program started with {@code exec:java},
   * from the project's.
   */
  static Path directory() {
    String configured = System.getProperty("caldera.deploy.dir");
    if (configured != null) {
      return Path.of(configured);
    }
    Path fromModule = Path.of("../../runtime/deploy");
    return Files.isDirectory(fromModule) ? fromModule : Path.of("runtime/deploy");
  }

  static Path crds() {
    return directory().resolve("crds");
  }

  /** Caldera's own CRD (PluginBundle), applied in every way of installing. */
  static Path calderaCrds() {
    return directory().resolve("caldera-crds");
  }

  static Path base() {
    return directory().resolve("base");
  }

  static Path overlay(String name) {
    return directory().resolve("overlays").resolve(name);
  }

  /** The RBAC every overlay ships. */
  static Path rbac() {
    return base().resolve("rbac.yaml");
  }

  /**
   * The resource files of a kustomization directory (its {@code *.yaml} but the kustomization
   * itself), sorted by name.
   */
  static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> s = Files.list(directory)) {
      return s.filter(p -> p.toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
          .sorted()
          .toList();
    }
  }

  /** Every document of every resource file of a directory. */
  static List<HasMetadata> load(Path directory) throws IOException {
    List<HasMetadata> objects = new ArrayList<>();
    for (Path file : files(directory)) {
      objects.addAll(documents(file));
    }
    return objects;
  }

  /**
   * What a cluster without Volcano gets, read from the files as written: the CRDs, the base and the
   * standalone overlay's queues (the overlays as kustomize renders them are {@link
   * KustomizeOverlaysTest}'s).
   */
  static List<HasMetadata> standalone() throws IOException {
    List<HasMetadata> objects = new ArrayList<>(load(crds()));
    objects.addAll(load(base()));
    objects.addAll(documents(overlay("standalone").resolve("queues.yaml")));
    return objects;
  }

  /** The documents of one file; fabric8 answers a list for several and the object for one. */
  static List<HasMetadata> documents(Path file) throws IOException {
    return parse(Files.readString(file));
  }

  /** The documents of a YAML stream. */
  static List<HasMetadata> parse(String yaml) {
    Object parsed = SERIALIZATION.unmarshal(yaml);
    if (parsed instanceof List<?> list) {
      return list.stream().filter(Objects::nonNull).map(HasMetadata.class::cast).toList();
    }
    return List.of((HasMetadata) parsed);
  }
}
