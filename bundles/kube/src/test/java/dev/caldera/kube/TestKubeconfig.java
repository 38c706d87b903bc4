package dev.caldera.kube;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import java.net.URI;

/** A kubeconfig for a test server: one cluster, an anonymous user, one current context. */
final class TestKubeconfig {

  private TestKubeconfig() {}

  static Config of(URI server) {
    return new ConfigBuilder()
        .withApiVersion("v1")
        .withKind("Config")
        .addNewCluster()
        .withName("test-server")
        .withNewCluster()
        .withServer(server.toString())
        .endCluster()
        .endCluster()
        .addNewUser()
        .withName("anonymous")
        .withNewUser()
        .endUser()
        .endUser()
        .addNewContext()
        .withName("test-server")
        .withNewContext()
        .withCluster("test-server")
        .withUser("anonymous")
        .endContext()
        .endContext()
        .withCurrentContext("test-server")
        .build();
  }

  /** The kubeconfig as YAML. */
  static String yaml(URI server) {
    return DeployManifests.SERIALIZATION.asYaml(of(server));
  }
}
