package dev.caldera.admin.internal.osgi;

import java.util.HashMap;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRevision;

/** The versions of Caldera's API packages that the installed bundles export. */
final class ApiExports {

  private ApiExports() {}

  /** Package → highest version exported by an installed bundle, for {@code dev.caldera.api*}. */
  static Map<String, Version> of(BundleContext context) {
    Map<String, Version> exports = new HashMap<>();
    for (Bundle b : context.getBundles()) {
      BundleRevision revision = b.adapt(BundleRevision.class);
      if (revision == null) {
        continue;
      }
      for (BundleCapability c :
          revision.getDeclaredCapabilities(PackageNamespace.PACKAGE_NAMESPACE)) {
        Object name = c.getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE);
        Object version = c.getAttributes().get(PackageNamespace.CAPABILITY_VERSION_ATTRIBUTE);
        if (name instanceof String pkg
            && (pkg.equals("dev.caldera.api") || pkg.startsWith("dev.caldera.api."))
            && version instanceof Version v) {
          exports.merge(pkg, v, (x, y) -> x.compareTo(y) >= 0 ? x : y);
        }
      }
    }
    return exports;
  }
}
