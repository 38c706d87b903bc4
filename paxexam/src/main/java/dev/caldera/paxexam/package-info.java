/**
 * Caldera in a Pax Exam container, for tests of plugin bundles written outside Caldera's
 * repository: {@link dev.caldera.paxexam.CalderaOptions} (the test's {@code @Configuration}),
 * {@link dev.caldera.paxexam.ScenarioRunner} (a scenario file run by the scheduling loop inside the
 * container) and {@link dev.caldera.paxexam.LoopWatch} (waits on a running loop).
 */
@Export
@Version("1.0.0")
package dev.caldera.paxexam;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
