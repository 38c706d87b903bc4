package dev.caldera.runtime.run;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * What {@code run} and {@code snapshot} check of a {@code --kubeconfig} before they start the
 * framework: the file is YAML, its current context names a context whose cluster has a server, and
 * the files it names for that cluster and user (certificates, key, token) can be read. Without the
 * check a broken file surfaced only inside the kube bundle, as a parser's stack trace without the
 * file's name, while the scheduler went on running without a cluster. Whether the credentials are
 * accepted is the API server's to say, when the client connects.
 */
public final class KubeconfigCheck {

  private static final YAMLMapper YAML = new YAMLMapper();

  private KubeconfigCheck() {}

  /** Why {@code file} cannot be used as a kubeconfig, or null when it can. */
  public static String problem(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (JsonProcessingException e) {
      return file + ": " + syntaxError(e);
    } catch (IOException e) {
      return "cannot read " + file + ": " + e.getMessage();
    }
    if (root == null || !root.isObject()) {
      return file + ": expected a kubeconfig (a YAML mapping with clusters, contexts and users)";
    }
    String current = root.path("current-context").asText("");
    if (current.isEmpty()) {
      return file + ": current-context: expected the name of one of its contexts, got none";
    }
    JsonNode context = named(root.path("contexts"), current);
    if (context == null) {
      return file + ": current-context: no context named \"" + current + "\" in contexts";
    }
    String clusterName = context.path("context").path("cluster").asText("");
    JsonNode cluster = named(root.path("clusters"), clusterName);
    if (cluster == null) {
      return file
          + ": contexts["
          + current
          + "].context.cluster: no cluster named \""
          + clusterName
          + "\" in clusters";
    }
    if (cluster.path("cluster").path("server").asText("").isBlank()) {
      return file + ": clusters[" + clusterName + "].cluster.server: expected the API server's URL";
    }
    String missing =
        missingFile(
            file, cluster.path("cluster"), "clusters[" + clusterName + "].cluster.", CLUSTER_FILES);
    if (missing == null) {
      String userName = context.path("context").path("user").asText("");
      JsonNode user = named(root.path("users"), userName);
      if (user != null) {
        missing = missingFile(file, user.path("user"), "users[" + userName + "].user.", USER_FILES);
      }
    }
    return missing;
  }

  /** The fields of a cluster and of a user that name files, read when the client connects. */
  private static final List<String> CLUSTER_FILES = List.of("certificate-authority");

  private static final List<String> USER_FILES =
      List.of("client-certificate", "client-key", "tokenFile");

  /**
   * The first of {@code fields} naming a file that cannot be read (relative: to the kubeconfig's).
   */
  private static String missingFile(
      Path kubeconfig, JsonNode entry, String at, List<String> fields) {
    for (String field : fields) {
      String name = entry.path(field).asText("");
      if (name.isEmpty()) {
        continue;
      }
      Path named = Path.of(name);
      Path resolved =
          named.isAbsolute() || kubeconfig.toAbsolutePath().getParent() == null
              ? named
              : kubeconfig.toAbsolutePath().getParent().resolve(named);
      if (!Files.isReadable(resolved)) {
        return kubeconfig + ": " + at + field + ": cannot read " + resolved;
      }
    }
    return null;
  }

  private static JsonNode named(JsonNode list, String name) {
    for (JsonNode entry : list) {
      if (name.equals(entry.path("name").asText(null))) {
        return entry;
      }
    }
    return null;
  }

  /** The parser's problem and where it is, in one line (its message quotes the text around). */
  private static String syntaxError(JsonProcessingException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
        return String.format(
            Locale.ROOT,
            "line %d, column %d: %s",
            yaml.getProblemMark().getLine() + 1,
            yaml.getProblemMark().getColumn() + 1,
            yaml.getProblem());
      }
    }
    JsonLocation at = e.getLocation();
    String message = e.getOriginalMessage().strip().lines().findFirst().orElse("not YAML");
    return at == null || at.getLineNr() < 1
        ? message
        : String.format(
            Locale.ROOT, "line %d, column %d: %s", at.getLineNr(), at.getColumnNr(), message);
  }
}
