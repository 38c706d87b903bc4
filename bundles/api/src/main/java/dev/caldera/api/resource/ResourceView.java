package dev.caldera.api.resource;

import java.util.List;
import java.util.Map;

/**
 * A resource vector to read and compare, never to change: what the session's views hand out (a
 * task's request, a job's sums, a node's figures, the cluster total), which are the session's own
 * state. Amounts are in the units of {@link ResourceNames#quantity}: milli-cores, bytes, a count of
 * pods, thousandths of other resources. The arithmetic lives in the api-support bundle ({@code
 * dev.caldera.support.resource.Resource}, which copies a view into a vector to compute with); the
 * session's views hand out its read-only face, which cannot be cast to a resource to change it.
 */
public interface ResourceView {

  /** The milli-cpu value. */
  double milliCpu();

  /** The memory in bytes. */
  double memory();

  /** The pod-count limit read from a node's allocatable {@code pods}; 0 elsewhere. */
  int maxTaskNum();

  /** The value at a dimension index; 0 when absent. */
  double get(int index);

  /** The value of a named dimension in internal units; 0 when absent. */
  double get(String name);

  /** Whether a dimension is present (cpu and memory always are). */
  boolean has(int index);

  /** Whether a named dimension is present. */
  boolean has(String name);

  /** The highest dimension index plus one that this vector may hold. */
  int width();

  /** Present scalar dimensions (index ≥ 2), in index order. */
  int[] scalarIndices();

  /** Whether any scalar is present. */
  boolean hasScalars();

  /** {@code IsEmpty}: every dimension except {@code pods} is below ε. */
  boolean isEmpty();

  /** {@code IsZero(name)}: the value is below ε (absent counts as zero). */
  boolean isZero(String name);

  /** {@code ResourceNames()}: indices of every dimension ≥ ε, {@code pods} included. */
  int[] resourceIndices();

  /** {@code ResourceNames()} as names: cpu, memory and pods first, then the others by name. */
  List<String> resourceNames();

  /** {@code Less}: strictly less on cpu and memory and on every scalar, with the {@code d} rule. */
  boolean less(ResourceView rr, Dimension d);

  /**
   * {@code LessEqual}: {@code l < r || |l − r| < ε} on cpu, memory and every scalar of this
   * resource; {@code pods} is not ignored. Under {@code ZERO} a scalar absent from {@code rr}
   * counts as 0; under {@code INFINITY} it is skipped, and a scalar present in {@code rr} but
   * absent here makes the result false.
   */
  boolean lessEqual(ResourceView rr, Dimension d);

  /**
   * {@code LessEqualWithResourcesName}: like {@link #lessEqual} without the infinity rule for extra
   * scalars in {@code rr}. Returns the insufficient names, cpu then memory then scalars in name
   * order; empty means it fits.
   */
  List<String> lessEqualWithResourcesName(ResourceView rr, Dimension d);

  /**
   * Allocation-free form of {@code lessEqualWithResourcesName(rr, ZERO).isEmpty()}, which equals
   * {@code lessEqual(rr, ZERO)}: the hot-path fit test.
   */
  boolean fits(ResourceView rr);

  /**
   * Allocation-free {@code lessEqual(base + plus − minus, ZERO)}: whether this fits what is left of
   * {@code base} after adding {@code plus} and taking {@code minus} (a node's future idle is idle +
   * releasing − pipelined). Absent scalars count as 0.
   */
  boolean fitsWithin(ResourceView base, ResourceView plus, ResourceView minus);

  /**
   * {@code LessEqualWithDimensionAndResourcesName(rr, req)}: compares only dimensions where {@code
   * req > 0}, {@code pods} skipped, strictly ({@code this > rr} is insufficient, no ε). Returns the
   * insufficient names; empty means within. {@code req == null} falls back to {@link
   * #lessEqualWithResourcesName} under {@code ZERO}.
   */
  List<String> lessEqualWithDimensionAndResourcesName(ResourceView rr, ResourceView req);

  /** {@code LessPartly}: strictly less on some dimension, with the {@code d} rules. */
  boolean lessPartly(ResourceView rr, Dimension d);

  /** {@code LessEqualPartly}: less-or-equal (ε) on some dimension, with the {@code d} rules. */
  boolean lessEqualPartly(ResourceView rr, Dimension d);

  /**
   * {@code LessEqualPartlyWithDimension(rr, req)}: the names of dimensions with {@code req > 0}
   * ({@code pods} skipped) where this ≤ rr (ε). Non-empty means "partly less-equal".
   */
  List<String> lessEqualPartlyWithDimension(ResourceView rr, ResourceView req);

  /**
   * {@code LessEqualPartlyWithDimensionZeroFiltered}: drops the dimensions where both sides are
   * below ε, then applies {@link #lessEqualPartlyWithDimension}.
   */
  List<String> lessEqualPartlyWithDimensionZeroFiltered(ResourceView rr, ResourceView req);

  /**
   * {@code Equal}: {@code |l − r| < ε} on cpu, memory and this resource's scalars (absent means 0).
   */
  boolean equal(ResourceView rr, Dimension d);

  /**
   * {@code GreaterPartly}: the names where this does not fit {@code rr}; non-empty means greater.
   */
  List<String> greaterPartly(ResourceView rr, Dimension d);

  /**
   * {@code GreaterPartlyWithDimension(rr, req)}: true if strictly {@code this > rr} on some
   * dimension with {@code req > 0} ({@code pods} skipped).
   */
  boolean greaterPartlyWithDimension(ResourceView rr, ResourceView req);

  /**
   * {@code GreaterPartlyWithRelevantDimensions(rr, req)}: keeps cpu/memory of {@code req} only
   * where {@code rr ≥ ε} and scalars only where {@code rr} has the name (even at 0), then applies
   * {@link #greaterPartlyWithDimension}.
   */
  boolean greaterPartlyWithRelevantDimensions(ResourceView rr, ResourceView req);

  /**
   * The Kubernetes resource list ({@code ConvertRes2ResList}): cpu as a milli quantity, memory in
   * bytes with a binary suffix where exact, {@code pods} as a count, other scalars as milli
   * quantities. cpu and memory are always present.
   */
  Map<String, Quantity> toList();

  /** Exact equality of every dimension and of presence (Go's {@code reflect.DeepEqual}). */
  boolean deepEquals(ResourceView o);

  /**
   * The resource as a value: equal (and equal hash codes) exactly when every value, present or
   * absent, and the pod-count limit are the same. For keys, e.g. a {@link
   * dev.caldera.api.extension.NodeLocality} key of a function that reads a task's request.
   */
  Object valueKey();
}
