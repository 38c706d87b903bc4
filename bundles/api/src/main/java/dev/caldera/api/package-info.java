@Export
@Version("1.5.0")
package dev.caldera.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
