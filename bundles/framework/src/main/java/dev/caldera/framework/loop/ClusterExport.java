package dev.caldera.framework.loop;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * The cluster as a cluster source sees it, written as a scenario file (the shared scenario format,
 * v1) that {@code caldera simulate} runs unchanged: a snapshot to replay under another conf or
 * policy set. Published as a service by a source of a real cluster (the kube bundle); the admin
 * API's {@code GET /api/snapshot} serves it. Called from the admin server's threads.
 */
@ConsumerType
public interface ClusterExport {

  /** The name of a snapshot taken at {@code at}: {@code snapshot-20261124-113235} (UTC). */
  static String snapshotName(Instant at) {
    return "snapshot-" + SNAPSHOT_TIME.format(at);
  }

  /** The time in {@link #snapshotName}. */
  DateTimeFormatter SNAPSHOT_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  /**
   * Writes the scenario; the objects are those the source has listed, in a stable order.
   *
   * @throws IllegalStateException while the source has not listed every kind (a snapshot would
   *     leave objects out)
   */
  String scenario(Request request);

  /**
   * What goes into the scenario besides the objects.
   *
   * @param name the scenario's name
   * @param conf the text of the scheduler conf in force (YAML), or null for none
   * @param policies policy file name → source text, as sessions see them
   * @param dropUnread whether to leave out what no plugin reads: annotations outside the scheduling
   *     ones ({@code volcano.sh/...}, {@code scheduling.k8s.io/...}, volume binding) and pod status
   *     beyond phase, conditions and nominated node
   * @param anonymize whether to replace names by made-up ones
   * @param json whether to write the scenario as JSON (a YAML document too, which loads several
   *     times faster: for large clusters) instead of block YAML
   */
  record Request(
      String name,
      String conf,
      Map<String, String> policies,
      boolean dropUnread,
      boolean anonymize,
      boolean json) {
    public Request {
      policies = policies == null ? Map.of() : Map.copyOf(policies);
    }

    /** A request for YAML. */
    public Request(
        String name,
        String conf,
        Map<String, String> policies,
        boolean dropUnread,
        boolean anonymize) {
      this(name, conf, policies, dropUnread, anonymize, false);
    }

    /** A request that keeps names. */
    public Request(String name, String conf, Map<String, String> policies, boolean dropUnread) {
      this(name, conf, policies, dropUnread, false);
    }
  }
}
