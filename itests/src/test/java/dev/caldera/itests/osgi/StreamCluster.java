package dev.caldera.itests.osgi;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cluster the test controls, registered as the loop's source and writer: two identical empty
 * nodes {@code n1} and {@code n2}, and in every snapshot one new pending pod of 1 CPU in its own
 * pod group, so that every session makes exactly one placement decision.
 */
final class StreamCluster implements ClusterSource, ClusterWriter {

  final AtomicLong applied = new AtomicLong();
  private int next;

  @Override
  public synchronized ClusterSnapshot snapshot() {
    int k = ++next;
    Instant created = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(k);
    Pod pod =
        new Pod(
            new ObjectMeta(
                "p" + k,
                "ns",
                null,
                created,
                null,
                null,
                Map.of("scheduling.k8s.io/group-name", "pg" + k),
                null),
            "volcano",
            "",
            0,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            List.of(
                new Container(
                    "c",
                    null,
                    Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("1Gi")),
                    null,
                    null)),
            null,
            null,
            null,
            null,
            "Pending",
            null,
            null);
    PodGroup group =
        new PodGroup(
            new ObjectMeta("pg" + k, "ns", null, created, null, null, null, null),
            "default",
            1,
            null,
            null,
            null,
            "Inqueue",
            null);
    Queue queue =
        new Queue(
            ObjectMeta.named("", "default"),
            1,
            null,
            null,
            null,
            null,
            "",
            0,
            null,
            null,
            "Open",
            null);
    return new ClusterSnapshot(
        List.of(node("n1"), node("n2")),
        List.of(pod),
        List.of(group),
        List.of(queue),
        new ClusterInfo(null, null, null, null, null),
        created);
  }

  private static Node node(String name) {
    return new Node(
        ObjectMeta.named("", name),
        false,
        null,
        Map.of(
            "cpu",
            Quantity.parse("8"),
            "memory",
            Quantity.parse("16Gi"),
            "pods",
            Quantity.parse("110")),
        null,
        null);
  }

  @Override
  public void apply(SessionResult result) {
    applied.incrementAndGet();
  }
}
