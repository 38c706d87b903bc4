package dev.caldera.kube;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for the parts of a Kubernetes API server that {@code kubectl apply --dry-run=client}
 * reads; nothing is stored and every write is refused.
 *
 * <ul>
 *   <li><b>Discovery</b> ({@code /api}, {@code /apis}, {@code /api/v1}, {@code
 *       /apis/<group>/<version>}), in the legacy format: current kubectl asks for aggregated
 *       discovery first and falls back to this when the answer is plain {@code application/json};
 *       older ones (Debian's 1.20) ask for nothing else. The resources are those of the given
 *       manifests: for a kind fabric8 has a model class for, the class's group, version, plural,
 *       singular and scope; for a custom resource, what its {@code CustomResourceDefinition} among
 *       the manifests says.
 *   <li><b>{@code /openapi/v2}</b>, which client-side validation reads: the CRDs' schemas ({@link
 *       CrdOpenApiV2}). There is no schema of the built-in kinds (no source to take one from), so
 *       kubectl validates only custom resources.
 *   <li><b>404</b> with a {@code NotFound} {@code Status} for everything else: each object kubectl
 *       looks up before deciding between create and patch (so it reports {@code created}), {@code
 *       /version}, and {@code /openapi/v3}. Finding no operation in either OpenAPI document,
 *       kubectl takes the server for one that does not validate fields itself and validates on the
 *       client; against a server that does, a client dry run would validate nothing.
 * </ul>
 */
final class DryRunApiServer implements AutoCloseable {

  /** The verbs a real server lists for a resource; kubectl's mapping reads only names. */
  private static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private final HttpServer server;
  private final Map<String, List<APIResource>> resourcesByGroupVersion = new TreeMap<>();
  private final byte[] openApiV2;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private DryRunApiServer(List<HasMetadata> manifests) throws IOException {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (HasMetadata object : manifests) {
      if (object instanceof CustomResourceDefinition crd) {
        crds.add(crd);
        customResources(crd);
      }
      if (!(object instanceof GenericKubernetesResource)) {
        builtIn(object.getClass());
      }
    }
    openApiV2 = CrdOpenApiV2.document(crds);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Serves the kinds of these manifests, and the schemas of the CRDs among them. */
  static DryRunApiServer serving(List<HasMetadata> manifests) throws IOException {
    return new DryRunApiServer(manifests);
  }

  URI uri() {
    InetSocketAddress address = server.getAddress();
    return URI.create("http://" + address.getHostString() + ":" + address.getPort());
  }

  /** Every request so far, as {@code METHOD path}. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void builtIn(Class<? extends HasMetadata> type) {
    add(
        HasMetadata.getApiVersion(type),
        new APIResourceBuilder()
            .withName(HasMetadata.getPlural(type))
            .withSingularName(HasMetadata.getSingular(type))
            .withNamespaced(Namespaced.class.isAssignableFrom(type))
            .withKind(HasMetadata.getKind(type))
            .withVerbs(VERBS)
            .build());
  }

  private void customResources(CustomResourceDefinition crd) {
    CustomResourceDefinitionNames names = crd.getSpec().getNames();
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      if (Boolean.TRUE.equals(version.getServed())) {
        add(
            crd.getSpec().getGroup() + "/" + version.getName(),
            new APIResourceBuilder()
                .withName(names.getPlural())
                .withSingularName(names.getSingular())
                .withNamespaced(crd.getSpec().getScope().equals("Namespaced"))
                .withKind(names.getKind())
                .withShortNames(names.getShortNames())
                .withCategories(names.getCategories())
                .withVerbs(VERBS)
                .build());
      }
    }
  }

  private void add(String groupVersion, APIResource resource) {
    List<APIResource> resources =
        resourcesByGroupVersion.computeIfAbsent(groupVersion, gv -> new ArrayList<>());
    if (resources.stream().noneMatch(r -> r.getName().equals(resource.getName()))) {
      resources.add(resource);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      requests.add(method + " " + path);
      APIResourceList resources = resourceList(path);
      if (!method.equals("GET")) {
        reply(exchange, 405, status(405, "MethodNotAllowed", method + " " + path));
      } else if (path.equals("/openapi/v2")) {
        send(exchange, 200, "application/octet-stream", openApiV2);
      } else if (path.equals("/api")) {
        reply(exchange, 200, new APIVersionsBuilder().withVersions("v1").build());
      } else if (path.equals("/apis")) {
        reply(exchange, 200, new APIGroupListBuilder().withGroups(groups()).build());
      } else if (resources != null) {
        reply(exchange, 200, resources);
      } else {
        reply(exchange, 404, status(404, "NotFound", path + " not found"));
      }
    }
  }

  /** The resource list of a group version, at the path discovery reads it from. */
  private APIResourceList resourceList(String path) {
    for (Map.Entry<String, List<APIResource>> e : resourcesByGroupVersion.entrySet()) {
      String groupVersion = e.getKey();
      String listPath = (groupVersion.contains("/") ? "/apis/" : "/api/") + groupVersion;
      if (listPath.equals(path)) {
        return new APIResourceListBuilder()
            .withGroupVersion(groupVersion)
            .withResources(e.getValue())
            .build();
      }
    }
    return null;
  }

  private List<APIGroup> groups() {
    Map<String, List<GroupVersionForDiscovery>> versionsByGroup = new TreeMap<>();
    for (String groupVersion : resourcesByGroupVersion.keySet()) {
      int slash = groupVersion.indexOf('/');
      if (slash > 0) {
        versionsByGroup
            .computeIfAbsent(groupVersion.substring(0, slash), g -> new ArrayList<>())
            .add(new GroupVersionForDiscovery(groupVersion, groupVersion.substring(slash + 1)));
      }
    }
    List<APIGroup> groups = new ArrayList<>();
    versionsByGroup.forEach(
        (name, versions) ->
            groups.add(
                new APIGroupBuilder()
                    .withName(name)
                    .withVersions(versions)
                    .withPreferredVersion(versions.get(0))
                    .build()));
    return groups;
  }

  private static Object status(int code, String reason, String message) {
    return new StatusBuilder()
        .withStatus("Failure")
        .withCode(code)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  private static void reply(HttpExchange exchange, int code, Object body) throws IOException {
    byte[] json = DeployManifests.SERIALIZATION.asJson(body).getBytes(StandardCharsets.UTF_8);
    send(exchange, code, "application/json", json);
  }

  private static void send(HttpExchange exchange, int code, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(code, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
