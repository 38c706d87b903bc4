package dev.caldera.plugins.proportion;

import dev.caldera.api.extension.CycleState;
import java.util.Map;
import java.util.TreeMap;

/** A task's private copy of the queue attributes, changed by the Simulate* functions. */
final class ProportionState implements CycleState.Data {

  static final String KEY = "proportion";

  final Map<String, QueueAttr> attrs;

  /**
   * A snapshot of {@code source}: its queue attributes are shared, which is safe because they are
   * replaced, never changed, once the session is open ({@link QueueAttr#withAllocated}).
   */
  ProportionState(Map<String, QueueAttr> source) {
    this.attrs = new TreeMap<>(source);
  }

  @Override
  public ProportionState copy() {
    return new ProportionState(attrs);
  }
}
