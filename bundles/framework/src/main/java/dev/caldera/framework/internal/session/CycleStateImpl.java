package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.CycleState;
import java.util.HashMap;
import java.util.Map;

/** A task's scratch state for one session. */
final class CycleStateImpl implements CycleState {

  private final Map<String, Data> values = new HashMap<>();

  @Override
  public synchronized Data read(String key) {
    return values.get(key);
  }

  @Override
  public synchronized void write(String key, Data data) {
    values.put(key, data);
  }

  @Override
  public synchronized CycleState copy() {
    CycleStateImpl copy = new CycleStateImpl();
    values.forEach((k, v) -> copy.values.put(k, v == null ? null : v.copy()));
    return copy;
  }
}
