package dev.caldera.sim.internal;

import dev.caldera.sim.ClusterState;
import dev.caldera.sim.EmbeddedCluster;
import java.util.Map;

/**
 * Reads objects and returns them admitted, as the scenario loader once did through an embedded
 * cluster's state: ArchitectureRulesTest checks that readersOfObjectsNeverAdmit catches it.
 */
public final class AdmitsWhileReading {
  public ClusterState read(ClusterState written) {
    return new EmbeddedCluster(written, Map.of()).state();
  }
}
