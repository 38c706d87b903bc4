package dev.caldera.sim.internal.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.TextFiles;
import dev.caldera.sim.internal.ObjectsReader;
import dev.caldera.sim.internal.StateBuilder;
import dev.caldera.sim.internal.YamlTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A directory of Kubernetes manifests, as {@code kubectl apply -f DIR} reads it: every {@code
 * *.yaml} and {@code *.yml} file below it in path order, each holding one or more documents, and a
 * document being an object, a {@code kind: List} or a YAML list of objects. The objects are checked
 * as the scenario loader checks a scenario's and, like those, admitted by the embedded cluster
 * holding them when its first snapshot is taken.
 */
public final class ManifestDirectory {

  private ManifestDirectory() {}

  /**
   * Reads every object into a new embedded cluster (flat queues, no node metrics, no policies).
   *
   * @throws ScenarioException naming the file, the object and the field of the first problem, or
   *     when the directory holds no manifest
   */
  public static EmbeddedCluster load(Path dir) throws ScenarioException {
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
    return new EmbeddedCluster(state.checked(), Map.of(), Map.of(), state.rules(false));
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
