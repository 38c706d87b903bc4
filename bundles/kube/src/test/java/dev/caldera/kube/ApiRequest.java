package dev.caldera.kube;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * An API request as RBAC sees it: the verb (Kubernetes' request-info rules: a GET is {@code get},
 * {@code list} or {@code watch}; POST {@code create}; PUT {@code update}; ...), the API group, the
 * resource and subresource, the namespace and the object's name.
 *
 * @param group {@code ""} for the core group
 * @param subresource {@code ""} when none
 * @param namespace {@code ""} for a cluster-scoped request
 * @param name {@code ""} for a collection
 */
record ApiRequest(
    String verb,
    String group,
    String resource,
    String subresource,
    String namespace,
    String name,
    String method,
    String path,
    String userAgent) {

  /** {@code group/resource[/subresource]:verb}, as RBAC rules spell it. */
  String access() {
    return group + "/" + resource + (subresource.isEmpty() ? "" : "/" + subresource) + ":" + verb;
  }

  /** Parses a request line; {@code rawPath} may carry a query. Non-API paths get verb "". */
  static ApiRequest of(String method, String rawPath, String userAgent) {
    int q = rawPath.indexOf('?');
    String path = q < 0 ? rawPath : rawPath.substring(0, q);
    String query = q < 0 ? "" : rawPath.substring(q + 1);
    List<String> parts =
        List.of(path.replaceAll("^/+", "").split("/")).stream()
            .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8))
            .toList();
    int rest;
    String group;
    if (parts.size() >= 2 && parts.get(0).equals("api")) {
      group = "";
      rest = 2; // api/v1/...
    } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
      group = parts.get(1);
      rest = 3; // apis/group/version/...
    } else {
      return new ApiRequest("", "", "", "", "", "", method, rawPath, userAgent);
    }
    List<String> tail = parts.subList(Math.min(rest, parts.size()), parts.size());
    String namespace = "";
    if (tail.size() >= 3 && tail.get(0).equals("namespaces")) {
      namespace = tail.get(1);
      tail = tail.subList(2, tail.size());
    }
    String resource = tail.isEmpty() ? "" : tail.get(0);
    String name = tail.size() > 1 ? tail.get(1) : "";
    String subresource = tail.size() > 2 ? tail.get(2) : "";
    boolean watch = query.matches("(^|.*&)watch=(true|1)(&.*|$)");
    String verb =
        switch (method) {
          case "GET", "HEAD" -> watch ? "watch" : name.isEmpty() ? "list" : "get";
          case "POST" -> "create";
          case "PUT" -> "update";
          case "PATCH" -> "patch";
          case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
          default -> method.toLowerCase(java.util.Locale.ROOT);
        };
    return new ApiRequest(
        verb, group, resource, subresource, namespace, name, method, rawPath, userAgent);
  }
}
