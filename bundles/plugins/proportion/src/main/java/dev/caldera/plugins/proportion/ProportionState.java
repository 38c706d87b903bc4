package dev.caldera.plugins.proportion;

import dev.caldera.api.extension.CycleState;
import java.util.Map;
import java.util.TreeMap;

/** A task's private copy of the queue attributes, changed by the Simulate* functions. */
final class ProportionState implements CycleState.Data {

  static final String KEY = "proportion";

  final Map<String, QueueAttr> attrs;

  ProportionState(Map<String, QueueAttr> source) {
    this.attrs = new TreeMap<>();
    source.forEach((name, attr) -> attrs.put(name, attr.copy()));
  }

  @Override
  public ProportionState copy() {
    return new ProportionState(attrs);
  }
}
