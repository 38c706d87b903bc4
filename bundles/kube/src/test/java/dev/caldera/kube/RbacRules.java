package dev.caldera.kube;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of {@code runtime/deploy/base/rbac.yaml} (the ClusterRole, and the Role in the
 * scheduler's namespace), evaluated as the API server's RBAC authorizer does: a request is allowed
 * when one rule matches its API group, resource (with subresource as {@code resource/sub}), verb
 * and, where the rule names objects, its name.
 */
final class RbacRules {

  private final List<PolicyRule> clusterRules;
  private final List<PolicyRule> namespacedRules;
  private final String namespace;

  RbacRules(List<PolicyRule> clusterRules, List<PolicyRule> namespacedRules, String namespace) {
    this.clusterRules = List.copyOf(clusterRules);
    this.namespacedRules = List.copyOf(namespacedRules);
    this.namespace = namespace;
  }

  /** The shipped rules. */
  static RbacRules shipped() throws Exception {
    List<Object> objects = new ArrayList<>(DeployManifests.documents(DeployManifests.rbac()));
    ClusterRole cluster =
        objects.stream()
            .filter(ClusterRole.class::isInstance)
            .map(ClusterRole.class::cast)
            .findFirst()
            .orElseThrow();
    Role role =
        objects.stream()
            .filter(Role.class::isInstance)
            .map(Role.class::cast)
            .findFirst()
            .orElseThrow();
    return new RbacRules(cluster.getRules(), role.getRules(), role.getMetadata().getNamespace());
  }

  /**
   * Whether {@code r} is allowed. The Role's rules hold in the scheduler's own namespace, where the
   * Deployment keeps its lease; tests keep their lease in a namespace of their own, so a namespaced
   * request is checked against them in any namespace (the lease's name still has to match).
   */
  boolean allows(ApiRequest r) {
    return matchesAny(clusterRules, r)
        || (!r.namespace().isEmpty() && matchesAny(namespacedRules, r));
  }

  /** The namespace of the Role (the scheduler's own). */
  String namespace() {
    return namespace;
  }

  private static boolean matchesAny(List<PolicyRule> rules, ApiRequest r) {
    String resource =
        r.subresource().isEmpty() ? r.resource() : r.resource() + "/" + r.subresource();
    for (PolicyRule rule : rules) {
      if (matches(rule.getApiGroups(), r.group())
          && matches(rule.getResources(), resource)
          && matches(rule.getVerbs(), r.verb())
          && (rule.getResourceNames().isEmpty() || rule.getResourceNames().contains(r.name()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(List<String> allowed, String value) {
    return allowed.contains("*") || allowed.contains(value);
  }
}
