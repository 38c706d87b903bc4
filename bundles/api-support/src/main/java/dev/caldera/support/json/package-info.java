/**
 * The one reader of JSON in annotation values ({@link AnnotationJson}), on Jackson: plugins read
 * their annotations through it instead of parsers of their own, and get one message per malformed
 * text naming the offset and what was expected there.
 */
@Export
@Version("1.0.0")
package dev.caldera.support.json;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
