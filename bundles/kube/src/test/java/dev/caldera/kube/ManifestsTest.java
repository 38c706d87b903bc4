package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The manifests of {@code runtime/deploy/}, as fabric8 reads them. Every document is parsed with
 * fabric8's serialization (the client's typed model) and must load as the class of its kind, so a
 * field of a built-in kind with the wrong type fails here, and a field the model does not know
 * (which fabric8 keeps in additional properties) is reported with its path. Then what the scheduler
 * relies on is checked: Volcano-compatible CRDs, RBAC that grants exactly the verbs the code uses,
 * a conf that parses with the plugins available, and the Deployment's wiring.
 *
 * <p>{@link KubectlDryRunTest} runs {@code kubectl apply --dry-run=client} on the same files
 * against a stand-in API server: kubectl maps every kind and validates the Queues against the CRDs'
 * schemas, but has no schema of the built-in kinds; those are this test's.
 */
class ManifestsTest {

  /**
   * The least privilege the ClusterRole may grant, as {@code group/resource:verb} ("" is the core
   * group): nothing beyond these. That the RBAC grants everything the client really sends is
   * checked on the requests themselves: every end-to-end flow on the mock server records the
   * scheduler's requests and fails when {@code base/rbac.yaml} does not grant one ({@link
   * MockApi#close}).
   */
  static final Set<String> CLUSTER_ACCESS =
      Set.of(
          "/nodes:list",
          "/nodes:watch",
          "/namespaces:list",
          "/namespaces:watch",
          "/resourcequotas:list",
          "/resourcequotas:watch",
          "/pods:list",
          "/pods:watch",
          "/pods:get",
          "/pods:delete",
          "/pods/binding:create",
          "/pods/eviction:create",
          "/pods/status:patch",
          "scheduling.k8s.io/priorityclasses:list",
          "scheduling.k8s.io/priorityclasses:watch",
          "policy/poddisruptionbudgets:list",
          "policy/poddisruptionbudgets:watch",
          "scheduling.volcano.sh/queues:list",
          "scheduling.volcano.sh/queues:watch",
          "scheduling.volcano.sh/queues:patch",
          "scheduling.volcano.sh/queues/status:patch",
          "scheduling.volcano.sh/podgroups:list",
          "scheduling.volcano.sh/podgroups:watch",
          "scheduling.volcano.sh/podgroups:get",
          "scheduling.volcano.sh/podgroups:patch",
          "scheduling.volcano.sh/podgroups/status:patch",
          "/persistentvolumes:list",
          "/persistentvolumes:watch",
          "/persistentvolumes:patch",
          "/persistentvolumeclaims:list",
          "/persistentvolumeclaims:watch",
          "/persistentvolumeclaims:patch",
          "storage.k8s.io/storageclasses:list",
          "storage.k8s.io/storageclasses:watch",
          "storage.k8s.io/csinodes:list",
          "storage.k8s.io/csinodes:watch",
          "events.k8s.io/events:create",
          "events.k8s.io/events:patch",
          "metrics.k8s.io/nodes:list");

  /**
   * In the scheduler's namespace: fabric8's {@code LeaseLock} (get and create one Lease, renew it
   * with a PATCH), and the PluginBundle objects (watched, each replica patching its own status).
   */
  static final Set<String> LEASE_ACCESS =
      Set.of(
          "coordination.k8s.io/leases:create",
          "coordination.k8s.io/leases[caldera-scheduler]:get",
          "coordination.k8s.io/leases[caldera-scheduler]:patch",
          "caldera.dev/pluginbundles:list",
          "caldera.dev/pluginbundles:watch",
          "caldera.dev/pluginbundles/status:patch");

  private static Path deploy;
  private static final List<HasMetadata> OBJECTS = new ArrayList<>();

  @BeforeAll
  static void load() throws IOException {
    deploy = DeployManifests.directory();
    OBJECTS.addAll(DeployManifests.standalone());
  }

  @Test
  void everyDocument_loadsAsItsKind() {
    assertThat(OBJECTS).hasSizeGreaterThanOrEqualTo(13);
    for (HasMetadata o : OBJECTS) {
      if (o.getKind().equals("Queue")) {
        assertThat(o).isInstanceOf(GenericKubernetesResource.class);
        assertThat(o.getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
      } else {
        assertThat(o.getClass().getSimpleName()).as(o.getKind()).isEqualTo(o.getKind());
      }
      assertThat(o.getMetadata().getName()).isNotBlank();
    }
    assertThat(OBJECTS)
        .extracting(HasMetadata::getKind)
        .contains(
            "CustomResourceDefinition",
            "Namespace",
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding",
            "Role",
            "RoleBinding",
            "ConfigMap",
            "Deployment",
            "Service");
  }

  @Test
  void everyDocument_hasOnlyFieldsItsKindDefines() {
    List<String> unknown = new ArrayList<>();
    for (HasMetadata o : OBJECTS) {
      if (!(o instanceof GenericKubernetesResource)) {
        unknownFields(o, o.getKind() + "/" + o.getMetadata().getName() + ":", unknown);
      }
    }
    assertThat(unknown).isEmpty();
  }

  @Test
  void unknownFields_findsAMisspelledField() {
    HasMetadata misspelled =
        DeployManifests.SERIALIZATION.unmarshal(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replica: 2\n"
                + "  template:\n    spec:\n      containers:\n      - {name: c, imagee: x}\n");
    List<String> unknown = new ArrayList<>();

    unknownFields(misspelled, "Deployment/d:", unknown);

    assertThat(unknown)
        .containsExactlyInAnyOrder(
            "Deployment/d: spec.replica", "Deployment/d: spec.template.spec.containers[0].imagee");
  }

  /**
   * The fields fabric8's typed model did not recognise anywhere in {@code value}: it keeps them in
   * each object's {@code additionalProperties} instead of failing, so a misspelled field would load
   * silently.
   */
  static void unknownFields(Object value, String path, List<String> out) {
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> unknownFields(v, path + "." + k, out));
      return;
    }
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        unknownFields(list.get(i), path + "[" + i + "]", out);
      }
      return;
    }
    if (value == null
        || !value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model.")
        || value instanceof io.fabric8.kubernetes.api.model.Quantity
        || value instanceof io.fabric8.kubernetes.api.model.IntOrString) {
      return;
    }
    String prefix = path.endsWith(":") ? path + " " : path + ".";
    java.lang.reflect.Method[] getters = value.getClass().getMethods();
    java.util.Arrays.sort(
        getters, java.util.Comparator.comparing(java.lang.reflect.Method::getName));
    for (java.lang.reflect.Method m : getters) {
      if (m.getParameterCount() != 0
          || m.getDeclaringClass() == Object.class
          || !(m.getName().startsWith("get") || m.getName().startsWith("is"))) {
        continue;
      }
      Object field;
      try {
        field = m.invoke(value);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(m.toString(), e);
      }
      String name = m.getName().substring(m.getName().startsWith("is") ? 2 : 3);
      name = Character.toLowerCase(name.charAt(0)) + name.substring(1);
      if (name.equals("additionalProperties")) {
        if (field instanceof Map<?, ?> extra) {
          extra.keySet().forEach(k -> out.add(prefix + k));
        }
      } else {
        unknownFields(field, prefix + name, out);
      }
    }
  }

  @Test
  void crds_matchVolcanos_andKeepNoUnknownField() {
    CustomResourceDefinition queues = crd("queues.scheduling.volcano.sh");
    assertThat(queues.getSpec().getGroup()).isEqualTo("scheduling.volcano.sh");
    assertThat(queues.getSpec().getScope()).isEqualTo("Cluster");
    assertThat(queues.getSpec().getNames().getKind()).isEqualTo("Queue");
    assertThat(queues.getSpec().getNames().getShortNames()).containsExactly("q", "queue-v1beta1");
    CustomResourceDefinition podGroups = crd("podgroups.scheduling.volcano.sh");
    assertThat(podGroups.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(podGroups.getSpec().getNames().getKind()).isEqualTo("PodGroup");
    assertThat(podGroups.getSpec().getNames().getShortNames())
        .containsExactly("pg", "podgroup-v1beta1");
    for (CustomResourceDefinition crd : List.of(queues, podGroups)) {
      CustomResourceDefinitionVersion v = crd.getSpec().getVersions().get(0);
      assertThat(v.getName()).isEqualTo("v1beta1");
      assertThat(v.getServed()).isTrue();
      assertThat(v.getStorage()).isTrue();
      // Volcano's Queue CRD has a status subresource, its PodGroup CRD none (VolcanoCrdsTest).
      assertThat(v.getSubresources() != null && v.getSubresources().getStatus() != null)
          .as(crd.getMetadata().getName())
          .isEqualTo(crd == queues);
      var props = v.getSchema().getOpenAPIV3Schema().getProperties();
      // As Volcano's: a field the schema does not name is rejected or pruned, never kept.
      assertThat(props.get("spec").getXKubernetesPreserveUnknownFields()).isNotEqualTo(true);
      assertThat(props.get("status").getXKubernetesPreserveUnknownFields()).isNotEqualTo(true);
    }
    var queueSpec =
        queues
            .getSpec()
            .getVersions()
            .get(0)
            .getSchema()
            .getOpenAPIV3Schema()
            .getProperties()
            .get("spec")
            .getProperties();
    assertThat(queueSpec)
        .containsKeys(
            "weight",
            "capability",
            "deserved",
            "guarantee",
            "reclaimable",
            "parent",
            "priority",
            "affinity");
    var groupSpec =
        podGroups
            .getSpec()
            .getVersions()
            .get(0)
            .getSchema()
            .getOpenAPIV3Schema()
            .getProperties()
            .get("spec")
            .getProperties();
    assertThat(groupSpec)
        .containsKeys("minMember", "minTaskMember", "minResources", "priorityClassName", "queue");
    assertThat(groupSpec.get("queue").getDefault().asText()).isEqualTo("default");
  }

  @Test
  void rbac_grantsNoMoreThanTheLeastPrivilegeListed() {
    ClusterRole role = one(ClusterRole.class);
    assertThat(access(role.getRules())).isEqualTo(new TreeSet<>(CLUSTER_ACCESS));
    Role lease = one(Role.class);
    assertThat(lease.getMetadata().getNamespace()).isEqualTo("caldera-system");
    assertThat(access(lease.getRules())).isEqualTo(new TreeSet<>(LEASE_ACCESS));

    ServiceAccount sa = one(ServiceAccount.class);
    ClusterRoleBinding crb = one(ClusterRoleBinding.class);
    assertThat(crb.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(crb.getSubjects())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getName()).isEqualTo(sa.getMetadata().getName());
              assertThat(s.getNamespace()).isEqualTo(sa.getMetadata().getNamespace());
            });
    RoleBinding rb = one(RoleBinding.class);
    assertThat(rb.getRoleRef().getName()).isEqualTo(lease.getMetadata().getName());
    assertThat(rb.getSubjects().get(0).getName()).isEqualTo(sa.getMetadata().getName());
  }

  @Test
  void configMap_holdsAConfThatParses_withPluginsThatExist_andTheShippedPolicy() throws Exception {
    ConfigMap cm = one(ConfigMap.class);
    SchedulerConf conf = SchedulerConf.parse(cm.getData().get("scheduler.conf"), "ConfigMap");
    assertThat(conf.actions()).containsExactly("enqueue", "allocate", "backfill", "reclaim");
    assertThat(conf.missing(new ServiceLoaderPluginRegistry())).isEmpty();
    Path shipped = deploy.resolve("../../policies/tidal.policy");
    assertThat(cm.getData().get("tidal.policy")).isEqualTo(Files.readString(shipped));
  }

  @Test
  void deployment_runsTwoReplicasWithLeaderElection_probesTheAdminEndpoints() {
    Deployment d = one(Deployment.class);
    ServiceAccount sa = one(ServiceAccount.class);
    ConfigMap cm = one(ConfigMap.class);
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    var pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo(sa.getMetadata().getName());
    assertThat(d.getMetadata().getNamespace()).isEqualTo(sa.getMetadata().getNamespace());
    Container c = pod.getContainers().get(0);
    assertThat(c.getArgs())
        .contains(
            "run",
            "--in-cluster",
            "--leader-elect",
            "--admin-address=0.0.0.0:8080",
            "--probe-address=0.0.0.0:8081",
            "--scheduler-name=$(CALDERA_SCHEDULER_NAME)");
    assertThat(env(c, "CALDERA_SCHEDULER_NAME").getValue()).isEqualTo("volcano");
    // The admin token comes from a Secret; without it (optional) bundle uploads are refused.
    var token = env(c, "CALDERA_ADMIN_TOKEN").getValueFrom().getSecretKeyRef();
    assertThat(token.getName()).isEqualTo("caldera-admin-token");
    assertThat(token.getKey()).isEqualTo("token");
    assertThat(token.getOptional()).isTrue();
    assertThat(c.getPorts())
        .extracting(p -> p.getName() + "=" + p.getContainerPort())
        .containsExactly("http=8080", "probes=8081");
    // The probes on their own listener, with every timing stated (the default 1 s timeout let
    // slow clients of the admin port get a healthy scheduler restarted).
    for (var probe : List.of(c.getLivenessProbe(), c.getReadinessProbe())) {
      assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("probes");
      assertThat(probe.getTimeoutSeconds()).isNotNull().isGreaterThan(1);
      assertThat(probe.getPeriodSeconds()).isNotNull();
      assertThat(probe.getFailureThreshold()).isNotNull();
    }
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(c.getArgs())
        .anySatisfy(
            a ->
                assertThat(a)
                    .startsWith("--admin-allowed-hosts=")
                    .contains(
                        one(Service.class).getMetadata().getName()
                            + "."
                            + one(Service.class).getMetadata().getNamespace()
                            + ".svc"));
    assertThat(c.getEnv()).extracting(EnvVar::getName).contains("POD_NAME", "POD_NAMESPACE");
    assertThat(
            c.getEnv().stream()
                .filter(e -> e.getName().equals("POD_NAME"))
                .findFirst()
                .orElseThrow()
                .getValueFrom()
                .getFieldRef()
                .getFieldPath())
        .isEqualTo("metadata.name");
    assertThat(pod.getVolumes())
        .anySatisfy(
            v -> assertThat(v.getConfigMap().getName()).isEqualTo(cm.getMetadata().getName()));
    assertThat(d.getSpec().getSelector().getMatchLabels().entrySet())
        .isSubsetOf(d.getSpec().getTemplate().getMetadata().getLabels().entrySet());

    Service svc = one(Service.class);
    assertThat(svc.getSpec().getSelector().entrySet())
        .isSubsetOf(d.getSpec().getTemplate().getMetadata().getLabels().entrySet());
    assertThat(svc.getSpec().getPorts().get(0).getPort()).isEqualTo(8080);
    assertThat(one(Namespace.class).getMetadata().getName())
        .isEqualTo(d.getMetadata().getNamespace());
  }

  @Test
  void queues_defaultAndRoot() {
    assertThat(OBJECTS.stream().filter(o -> o.getKind().equals("Queue")))
        .extracting(o -> o.getMetadata().getName())
        .containsExactly("default", "root");
  }

  private static CustomResourceDefinition crd(String name) {
    return OBJECTS.stream()
        .filter(o -> o instanceof CustomResourceDefinition)
        .map(CustomResourceDefinition.class::cast)
        .filter(c -> c.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  static EnvVar env(Container c, String name) {
    return c.getEnv().stream()
        .filter(e -> e.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no env " + name));
  }

  private static <T> T one(Class<T> type) {
    List<T> found = OBJECTS.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  private static Set<String> access(List<PolicyRule> rules) {
    Set<String> out = new TreeSet<>();
    for (PolicyRule r : rules) {
      for (String g : r.getApiGroups()) {
        for (String res : r.getResources()) {
          for (String verb : r.getVerbs()) {
            if (r.getResourceNames().isEmpty()) {
              out.add(g + "/" + res + ":" + verb);
            } else {
              for (String n : r.getResourceNames()) {
                out.add(g + "/" + res + "[" + n + "]:" + verb);
              }
            }
          }
        }
      }
    }
    return out;
  }
}
