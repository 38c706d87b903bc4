package dev.caldera.testkit;

import dev.caldera.api.extension.CycleState;
import java.util.HashMap;
import java.util.Map;

/** A plain map-backed {@link CycleState}. */
public final class FakeCycleState implements CycleState {

  private final Map<String, Data> values = new HashMap<>();

  @Override
  public Data read(String key) {
    return values.get(key);
  }

  @Override
  public void write(String key, Data data) {
    values.put(key, data);
  }

  @Override
  public FakeCycleState copy() {
    FakeCycleState copy = new FakeCycleState();
    values.forEach((k, v) -> copy.values.put(k, v == null ? null : v.copy()));
    return copy;
  }
}
