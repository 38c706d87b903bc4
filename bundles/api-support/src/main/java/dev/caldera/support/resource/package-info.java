/**
 * The arithmetic of the API's resource vectors ({@code dev.caldera.api.resource.ResourceView}):
 * {@link Resource}, the mutable vector sessions and plugins compute with (Volcano's {@code
 * api.Resource}), and {@link ReadOnlyResource}, the read-only face a view hands out. A resource is
 * built from a Kubernetes resource list ({@link Resource#fromList}) or a pod ({@link
 * Resource#requestOf}); a view is copied into one with {@link Resource#copyOf}.
 */
@Export
@Version("1.0.0")
package dev.caldera.support.resource;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
