package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The RBAC check that every mock-server flow runs on the scheduler's requests. */
class RbacRulesTest {

  private static final ApiRequest LEASE_RENEWAL =
      ApiRequest.of(
          "PATCH",
          "/apis/coordination.k8s.io/v1/namespaces/caldera-system/leases/caldera-scheduler",
          "caldera-scheduler");

  @Test
  void requestsParseAsTheAuthorizerSeesThem() {
    assertThat(LEASE_RENEWAL.access()).isEqualTo("coordination.k8s.io/leases:patch");
    assertThat(LEASE_RENEWAL.namespace()).isEqualTo("caldera-system");
    assertThat(LEASE_RENEWAL.name()).isEqualTo("caldera-scheduler");
    assertThat(ApiRequest.of("GET", "/api/v1/pods?watch=true&resourceVersion=5", "").access())
        .isEqualTo("/pods:watch");
    assertThat(ApiRequest.of("GET", "/api/v1/namespaces?limit=500", "").access())
        .isEqualTo("/namespaces:list");
    assertThat(ApiRequest.of("POST", "/api/v1/namespaces/ns1/pods/p1/binding", "").access())
        .isEqualTo("/pods/binding:create");
    ApiRequest status =
        ApiRequest.of(
            "PATCH", "/apis/scheduling.volcano.sh/v1beta1/namespaces/ns1/podgroups/pg/status", "");
    assertThat(status.access()).isEqualTo("scheduling.volcano.sh/podgroups/status:patch");
    assertThat(ApiRequest.of("GET", "/api/v1/namespaces/ns1", "").access())
        .as("one namespace object")
        .isEqualTo("/namespaces:get");
  }

  @Test
  void theShippedRoleGrantsTheLeaseRenewal_theFormerGetUpdateRoleDidNot() throws Exception {
    assertThat(RbacRules.shipped().allows(LEASE_RENEWAL)).isTrue();

    List<PolicyRule> former =
        List.of(
            new PolicyRuleBuilder()
                .withApiGroups("coordination.k8s.io")
                .withResources("leases")
                .withResourceNames("caldera-scheduler")
                .withVerbs("get", "update")
                .build());
    assertThat(new RbacRules(List.of(), former, "caldera-system").allows(LEASE_RENEWAL)).isFalse();
  }

  @Test
  void aRuleNamingAnObjectGrantsNoOther() throws Exception {
    ApiRequest otherLease =
        ApiRequest.of(
            "PATCH",
            "/apis/coordination.k8s.io/v1/namespaces/caldera-system/leases/someone-else",
            "caldera-scheduler");
    assertThat(RbacRules.shipped().allows(otherLease)).isFalse();
  }

  @Test
  void pluginBundles_areWatchedAndTheirStatusPatched_butTheirSpecNeverWritten() throws Exception {
    String objects = "/apis/caldera.dev/v1alpha1/namespaces/caldera-system/pluginbundles";
    RbacRules rules = RbacRules.shipped();
    assertThat(rules.allows(ApiRequest.of("GET", objects + "?watch=true", ""))).isTrue();
    assertThat(rules.allows(ApiRequest.of("PATCH", objects + "/p/status", ""))).isTrue();
    // Who may install code into the scheduler is who may write PluginBundles, never the scheduler.
    assertThat(rules.allows(ApiRequest.of("PATCH", objects + "/p", ""))).isFalse();
    assertThat(rules.allows(ApiRequest.of("POST", objects, ""))).isFalse();
    assertThat(rules.allows(ApiRequest.of("DELETE", objects + "/p", ""))).isFalse();
  }
}
