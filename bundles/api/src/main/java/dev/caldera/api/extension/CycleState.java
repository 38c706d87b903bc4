package dev.caldera.api.extension;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Per-task scratch state that lives for one session: pre-predicates store what their predicates and
 * simulations reuse. Topology-aware preemption copies it per candidate node.
 */
@ProviderType
public interface CycleState {

  /** A value a plugin stores; copied when the state is copied. */
  interface Data {
    /** A copy that simulations may change without touching this one. */
    Data copy();
  }

  /** The value stored under {@code key}, or null. */
  Data read(String key);

  /** Stores {@code data} under {@code key}. */
  void write(String key, Data data);

  /** A deep copy (each value's {@link Data#copy()}). */
  CycleState copy();
}
