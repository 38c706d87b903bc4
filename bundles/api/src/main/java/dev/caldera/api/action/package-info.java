@Export
@Version("1.1.0")
package dev.caldera.api.action;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
