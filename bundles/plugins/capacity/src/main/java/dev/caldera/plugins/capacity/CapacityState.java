package dev.caldera.plugins.capacity;

import dev.caldera.api.extension.CycleState;
import dev.caldera.support.resource.Resource;

/**
 * A task's private copy of every queue's allocation, taken by the pre-predicate and changed by the
 * Simulate* functions of topology-aware preemption; the real attributes are never touched. Only
 * allocations are copied: nothing else changes during a simulation.
 */
final class CapacityState implements CycleState.Data {

  static final String KEY = "capacity";

  /** Allocations by {@link QueueAttr#index}. */
  final Resource[] allocated;

  private CapacityState(Resource[] allocated) {
    this.allocated = allocated;
  }

  static CapacityState of(QueueTable table) {
    Resource[] allocated = new Resource[table.all().size()];
    for (QueueAttr attr : table.all()) {
      allocated[attr.index] = attr.allocated.copy();
    }
    return new CapacityState(allocated);
  }

  @Override
  public CapacityState copy() {
    Resource[] out = new Resource[allocated.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = allocated[i].copy();
    }
    return new CapacityState(out);
  }
}
