package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class PluginBundlesListProblemTest {

  private static KubernetesClientException answered(int code, String reason, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withReason(reason).withMessage(message).build());
  }

  @Test
  void aForbiddenList_saysTheStatusOnce_andWhichNamespaceIsRead() {
    String message =
        "pluginbundles.caldera.dev is forbidden: User"
            + " \"system:serviceaccount:caldera-system:caldera-scheduler\" cannot list resource"
            + " \"pluginbundles\" in API group \"caldera.dev\" in the namespace \"default\"";

    String line =
        PluginBundles.listProblem(
            "default", new CompletionException(answered(403, "Forbidden", message)));

    assertThat(line)
        .startsWith("cannot list or watch PluginBundles in default (HTTP 403 Forbidden: " + message)
        .contains("$POD_NAMESPACE", "kubeconfig context", "caldera-system")
        .doesNotContain("CRD", "Status(", "Failure executing");
  }

  @Test
  void aMissingResource_asksWhetherTheCrdIsInstalled() {
    String line =
        PluginBundles.listProblem(
            "caldera-system",
            answered(404, "NotFound", "the server could not find the requested resource"));

    assertThat(line)
        .isEqualTo(
            "cannot list or watch PluginBundles in caldera-system (HTTP 404 NotFound: the server"
                + " could not find the requested resource); retrying. Is the CRD"
                + " pluginbundles.caldera.dev installed?");
  }

  @Test
  void noAnswer_namesTheConnectionFailure_withoutAHint() {
    KubernetesClientException noAnswer =
        new KubernetesClientException(
            "An error has occurred.", new ConnectException("Connection refused"));

    assertThat(PluginBundles.listProblem("caldera-system", noAnswer))
        .isEqualTo(
            "cannot list or watch PluginBundles in caldera-system (no answer from the API server:"
                + " ConnectException: Connection refused); retrying.");
  }
}
