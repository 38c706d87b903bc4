@Export
@Version("1.4.0")
package dev.caldera.api.resource;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
