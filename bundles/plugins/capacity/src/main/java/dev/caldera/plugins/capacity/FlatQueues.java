package dev.caldera.plugins.capacity;

import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Flat mode ({@code buildQueueAttrs}): one attribute per queue that has jobs. */
final class FlatQueues {

  private FlatQueues() {}

  static QueueTable build(Session session) {
    ResourceView total = session.totalResource();
    Resource totalGuarantee = Resource.empty();
    for (QueueInfo queue : session.queues()) {
      totalGuarantee.add(guarantee(queue));
    }
    Resource unguaranteed = Resource.exceededPart(total, totalGuarantee);
    Map<String, QueueAttr> attrs = new TreeMap<>();
    for (JobInfo job : session.jobs()) {
      QueueInfo queue = session.queue(job.queue());
      if (queue == null) {
        continue;
      }
      QueueAttr attr = attrs.computeIfAbsent(queue.name(), n -> newAttr(queue, unguaranteed));
      JobUsage.of(job).addTo(attr);
    }
    for (QueueAttr attr : attrs.values()) {
      attr.deserved.minDimension(attr.realCapability, Dimension.INFINITY);
      attr.deserved = Resource.max(attr.deserved, attr.guarantee);
      attr.updateShare();
    }
    return new QueueTable(false, attrs, new ArrayList<>(attrs.values()), null, List.of());
  }

  private static QueueAttr newAttr(QueueInfo queue, ResourceView unguaranteed) {
    QueueAttr attr = new QueueAttr(queue.name(), queue);
    attr.deserved = Resource.fromList(queue.queue().deserved());
    attr.specDeserved = true;
    attr.guarantee = guarantee(queue);
    attr.specGuarantee = attr.guarantee;
    attr.capability = capability(queue);
    attr.realCapability = Resource.copyOf(unguaranteed).add(attr.guarantee);
    if (attr.capability != null) {
      attr.realCapability.minDimension(attr.capability, Dimension.INFINITY);
    }
    return attr;
  }

  static Resource guarantee(QueueInfo queue) {
    var guarantee = queue.queue().guarantee();
    return guarantee == null || guarantee.isEmpty()
        ? Resource.empty()
        : Resource.fromList(guarantee);
  }

  /** {@code spec.capability} with cpu or memory ≤ 0 read as unlimited, or null when unset. */
  static Resource capability(QueueInfo queue) {
    var capability = queue.queue().capability();
    if (capability == null || capability.isEmpty()) {
      return null;
    }
    return unlimitedWhereUnset(Resource.fromList(capability));
  }

  static Resource unlimitedWhereUnset(Resource capability) {
    if (capability.milliCpu() <= 0) {
      capability.set(ResourceNames.CPU_INDEX, Double.MAX_VALUE);
    }
    if (capability.memory() <= 0) {
      capability.set(ResourceNames.MEMORY_INDEX, Double.MAX_VALUE);
    }
    return capability;
  }
}
