/**
 * The scenario simulator: {@link dev.caldera.sim.ScenarioLoader} reads a scenario file, {@link
 * dev.caldera.sim.EmbeddedCluster} holds its objects in memory, {@link
 * dev.caldera.sim.ScenarioRunner} runs the sessions, {@link dev.caldera.sim.ExpectationChecker}
 * compares the decisions with {@code expect:} and {@link dev.caldera.sim.ReportWriter} prints them.
 */
@Export
@Version("3.0.0")
package dev.caldera.sim;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
