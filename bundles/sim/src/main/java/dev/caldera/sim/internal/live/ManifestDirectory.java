package dev.caldera.sim.internal.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.sim.ClusterState;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.TextFiles;
import dev.caldera.sim.internal.ObjectsReader;
import dev.caldera.sim.internal.ScenarioAdmission;
import dev.caldera.sim.internal.StateBuilder;
import dev.caldera.sim.internal.YamlTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A directory of Kubernetes manifests, as {@code kubectl apply -f DIR} reads it: every {@code
 * *.yaml} and {@code *.yml} file below it in path order, each holding one or more documents, and a
 * document being an object, a {@code kind: List} or a YAML list of objects. The objects are
 * admitted as the scenario loader admits them.
 */
public final class ManifestDirectory {

  private ManifestDirectory() {}

  /**
   * Reads and admits every object.
   *
   * @throws ScenarioException naming the file, the object and the field of the first problem, or
   *     when the directory holds no manifest
   */
  public static ClusterState load(Path dir) throws ScenarioException {
    if (!Files.isDirectory(dir)) {
      throw new ScenarioException(dir + ": not a directory of manifests");
    }
    List<Path> files;
    try {
      files = ScenarioLoader.expand(List.of(dir));
    } catch (UncheckedIOException e) {
      throw new ScenarioException(dir + ": cannot list: " + e.getCause().getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new ScenarioException(dir + ": no manifests (*.yaml, *.yml)");
    }
    StateBuilder state = new StateBuilder();
    for (Path file : files) {
      List<JsonNode> objects = new ArrayList<>();
      String text;
      try {
        text = TextFiles.read(file, TextFiles.MAX_SCENARIO_BYTES);
      } catch (IOException e) {
        throw new ScenarioException(file + ": cannot read: " + e.getMessage(), e);
      }
      for (JsonNode doc : YamlTrees.readAll(text, file.toString())) {
        flatten(doc, objects);
      }
      state.addAll(ObjectsReader.read(file.toString(), objects));
    }
    return ScenarioAdmission.admitted(state, false);
  }

  private static void flatten(JsonNode doc, List<JsonNode> out) {
    if (doc.isArray()) {
      doc.forEach(d -> flatten(d, out));
    } else if (doc.isObject() && "List".equals(doc.path("kind").asText()) && doc.has("items")) {
      doc.get("items").forEach(d -> flatten(d, out));
    } else {
      out.add(doc);
    }
  }
}
