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
 * The manifests of {@code runtime/deploy/}, each document parsed with fabric8's serialization: a
 * kind fabric8 has a model class for loads as that class, anything else (Volcano's Queue) as a
 * {@code GenericKubernetesResource}.
 */
final class DeployManifests {

  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private DeployManifests() {}

  /** {@code runtime/deploy/}, as the build passes it (surefire's {@code caldera.deploy.dir}). */
  static Path directory() {
    return Path.of(System.getProperty("caldera.deploy.dir", "../../runtime/deploy"));
  }

  /** The {@code *.yaml} files of a directory, in the order {@code kubectl apply -f} reads them. */
  static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> s = Files.list(directory)) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  /** Every document of every {@code *.yaml} file of a directory. */
  static List<HasMetadata> load(Path directory) throws IOException {
    List<HasMetadata> objects = new ArrayList<>();
    for (Path file : files(directory)) {
      objects.addAll(documents(file));
    }
    return objects;
  }

  /** The documents of one file; fabric8 answers a list for several and the object for one. */
  static List<HasMetadata> documents(Path file) throws IOException {
    Object parsed = SERIALIZATION.unmarshal(Files.readString(file));
    if (parsed instanceof List<?> list) {
      return list.stream().filter(Objects::nonNull).map(HasMetadata.class::cast).toList();
    }
    return List.of((HasMetadata) parsed);
  }
}
