@Export
@Version("2.0.0")
package dev.caldera.api.model;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
