package dev.caldera.itests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A kubeconfig for fabric8's mock API server: no credentials, namespace {@code default}. */
final class MockKubeconfig {

  private MockKubeconfig() {}

  /** Writes it to {@code file} for the server at {@code serverUrl}; returns {@code file}. */
  static Path write(Path file, String serverUrl) throws IOException {
    Files.writeString(
        file,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: mock",
            "  cluster: {server: \"" + serverUrl + "\"}",
            "users:",
            "- name: me",
            "  user: {}",
            "contexts:",
            "- name: mock",
            "  context: {cluster: mock, user: me, namespace: default}",
            "current-context: mock",
            ""));
    return file;
  }
}
