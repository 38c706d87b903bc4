package dev.caldera.runtime;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera snapshot}: asks a running scheduler for the cluster as it sees it, written as a
 * scenario file ({@code GET /api/snapshot}), to replay with {@code caldera simulate} or compare
 * under a change with {@code caldera diff}.
 */
@Command(
    name = "snapshot",
    mixinStandardHelpOptions = true,
    description = {
      "Write the cluster as a running scheduler sees it as a scenario file, with the conf and"
          + " policies in force.",
      "Exit status: 0 written, 1 the scheduler could not give it, 2 usage error."
    })
final class SnapshotCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Option(
      names = "--admin",
      defaultValue = "http://127.0.0.1:8080",
      paramLabel = "URL",
      description = "The scheduler's admin API (default: ${DEFAULT-VALUE}).")
  String admin;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description = "The admin token (default: $CALDERA_ADMIN_TOKEN).")
  String token;

  @Option(
      names = "--drop-unread",
      description =
          "Leave out what no plugin reads: other annotations, pod status beyond phase and"
              + " conditions, containers' environment, command and probes.")
  boolean dropUnread;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the scenario to FILE instead of standard output.")
  Path output;

  @Override
  public Integer call() throws IOException, InterruptedException {
    String t = token != null ? token : System.getenv("CALDERA_ADMIN_TOKEN");
    URI uri;
    try {
      uri =
          URI.create(
              (admin.endsWith("/") ? admin.substring(0, admin.length() - 1) : admin)
                  + "/api/snapshot"
                  + (dropUnread ? "?dropUnread=true" : ""));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--admin: not a URL: " + admin);
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2));
    if (t != null && !t.isBlank()) {
      request.header("Authorization", "Bearer " + t.strip());
    }
    HttpResponse<String> response;
    try {
      response =
          HttpClient.newBuilder()
              .connectTimeout(Duration.ofSeconds(10))
              .build()
              .send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      parent.err().println("error: cannot reach the scheduler at " + uri + ": " + e);
      return 1;
    }
    if (response.statusCode() != 200) {
      parent
          .err()
          .println(
              "error: " + uri + ": HTTP " + response.statusCode() + ": " + response.body().strip());
      return 1;
    }
    if (output == null) {
      parent.out().print(response.body());
      parent.out().flush();
    } else {
      Files.writeString(output, response.body(), StandardCharsets.UTF_8);
    }
    return 0;
  }
}
