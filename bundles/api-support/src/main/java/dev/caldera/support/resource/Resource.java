package dev.caldera.support.resource;

import dev.caldera.api.model.Container;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A resource vector with Volcano's semantics ({@code pkg/scheduler/api/resource_info.go}).
 *
 * <p>Values are doubles indexed by {@link ResourceNames}: cpu in milli-cores, memory in bytes,
 * {@code pods} in whole pods and every other scalar in milli-units. cpu and memory are always
 * present; a scalar may be <em>absent</em>, which is not the same as zero: the comparison family
 * takes a {@link Dimension} that says whether an absent scalar counts as zero or as infinity.
 *
 * <p>Instances are mutable, like Volcano's: {@link #add}, {@link #sub} and friends change the
 * receiver and return it. The session's views hand out {@link ResourceView}s (reading and comparing
 * only); {@link #copy()} gives a plugin a resource of its own to compute with. Not thread-safe.
 */
public final class Resource implements ResourceView {

  /** Volcano's {@code minResource}: two values closer than this are equal. */
  public static final double EPSILON = 0.1;

  private static final double ABSENT = Double.NaN;

  private double[] values;
  private int maxTaskNum;
  private ReadOnlyResource view;

  private Resource(double[] values) {
    this.values = values;
  }

  /** cpu 0, memory 0, no scalars. */
  public static Resource empty() {
    return new Resource(new double[2]);
  }

  /** A resource with cpu (milli) and memory (bytes) only. */
  public static Resource of(double milliCpu, double memoryBytes) {
    return new Resource(new double[] {milliCpu, memoryBytes});
  }

  /**
   * Builds a resource from a Kubernetes resource list as Volcano's {@code NewResource} does: cpu in
   * milli, memory in bytes, {@code pods} in whole units (also setting {@link #maxTaskNum()}),
   * ephemeral storage and scalar resource names in milli; {@code count/*} and every other name are
   * ignored.
   */
  public static Resource fromList(Map<String, Quantity> list) {
    Resource r = empty();
    if (list == null) {
      return r;
    }
    for (Map.Entry<String, Quantity> e : list.entrySet()) {
      String name = e.getKey();
      Quantity q = e.getValue();
      switch (name) {
        case ResourceNames.CPU -> r.values[0] += q.milliValue();
        case ResourceNames.MEMORY -> r.values[1] += q.value();
        case ResourceNames.PODS -> {
          r.maxTaskNum += (int) q.value();
          r.addScalar(ResourceNames.PODS_INDEX, q.value());
        }
        case ResourceNames.EPHEMERAL_STORAGE ->
            r.addScalar(ResourceNames.indexOf(name), q.milliValue());
        default -> {
          if (!name.startsWith("count/") && ResourceNames.isScalarResourceName(name)) {
            r.addScalar(ResourceNames.indexOf(name), q.milliValue());
          }
        }
      }
    }
    return r;
  }

  @Override
  public Object valueKey() {
    double[] copy = values.clone();
    for (int i = 0; i < copy.length; i++) {
      if (Double.isNaN(copy[i])) {
        copy[i] = ABSENT_KEY;
      }
    }
    int width = copy.length;
    while (width > 2 && copy[width - 1] == ABSENT_KEY) {
      width--;
    }
    return new ValueKey(width == copy.length ? copy : Arrays.copyOf(copy, width), maxTaskNum);
  }

  /** Stands for an absent scalar in a {@link #valueKey()} (NaN would not compare equal). */
  private static final double ABSENT_KEY = Double.NEGATIVE_INFINITY;

  private record ValueKey(double[] values, int maxTaskNum) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ValueKey k
          && k.maxTaskNum == maxTaskNum
          && Arrays.equals(k.values, values);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(values) * 31 + maxTaskNum;
    }

    @Override
    public String toString() {
      return Arrays.toString(values) + "/" + maxTaskNum;
    }
  }

  /**
   * The read-only face of this resource, for a view to hand out: it reads this resource live and
   * cannot be cast back to it. The same object every time.
   *
   * @since 1.4
   */
  public ResourceView view() {
    ReadOnlyResource v = view;
    if (v == null) {
      v = new ReadOnlyResource(this);
      view = v;
    }
    return v;
  }

  /**
   * The resource behind {@code v}: itself, the one a read-only face reads, or a copy of another
   * implementation's values.
   */
  private static Resource of(ResourceView v) {
    if (v instanceof Resource r) {
      return r;
    }
    if (v instanceof ReadOnlyResource ro) {
      return ro.resource;
    }
    return copyOfValues(v);
  }

  /** A deep copy of {@code v}, the caller's own to change. */
  public static Resource copyOf(ResourceView v) {
    return v instanceof Resource || v instanceof ReadOnlyResource ? of(v).copy() : copyOfValues(v);
  }

  /** A resource of {@code v}'s values, read through the interface. */
  private static Resource copyOfValues(ResourceView v) {
    Resource r = new Resource(new double[Math.max(2, v.width())]);
    for (int i = 0; i < r.values.length; i++) {
      r.values[i] = v.has(i) ? v.get(i) : ABSENT;
    }
    r.values[0] = v.milliCpu();
    r.values[1] = v.memory();
    r.maxTaskNum = v.maxTaskNum();
    return r;
  }

  /**
   * The pod's request as Volcano's {@code GetPodResourceRequest} computes it (without in-place
   * resize or pod-level resources): the containers summed; the per-dimension max with each init
   * container, restartable (sidecar) init containers accumulating and adding to the sum; one {@code
   * pods}; then the overhead. A new resource each call.
   */
  public static Resource requestOf(Pod pod) {
    Resource result = empty();
    for (Container c : pod.containers()) {
      result.add(fromList(c.requests()));
    }
    Resource sidecars = empty();
    Resource initMax = empty();
    for (Container c : pod.initContainers()) {
      Resource req = fromList(c.requests());
      if ("Always".equals(c.restartPolicy())) {
        result.add(req);
        sidecars.add(req);
        initMax.setMax(sidecars);
      } else {
        initMax.setMax(req.copy().add(sidecars));
      }
    }
    result.setMax(initMax);
    result.set(ResourceNames.PODS_INDEX, result.get(ResourceNames.PODS_INDEX) + 1);
    if (!pod.overhead().isEmpty()) {
      result.add(fromList(pod.overhead()));
    }
    return result;
  }

  /** A deep copy. */
  public Resource copy() {
    Resource r = new Resource(values.clone());
    r.maxTaskNum = maxTaskNum;
    return r;
  }

  // ---------------------------------------------------------------- access

  @Override
  public double milliCpu() {
    return values[0];
  }

  @Override
  public double memory() {
    return values[1];
  }

  @Override
  public int maxTaskNum() {
    return maxTaskNum;
  }

  /** Sets the pod-count limit. */
  public Resource setMaxTaskNum(int maxTaskNum) {
    this.maxTaskNum = maxTaskNum;
    return this;
  }

  @Override
  public double get(int index) {
    if (index >= values.length) {
      return 0;
    }
    double v = values[index];
    return v != v ? 0 : v;
  }

  @Override
  public double get(String name) {
    int index = ResourceNames.existingIndexOf(name);
    return index < 0 ? 0 : get(index);
  }

  @Override
  public boolean has(int index) {
    return index < 2 || (index < values.length && !Double.isNaN(values[index]));
  }

  @Override
  public boolean has(String name) {
    int index = ResourceNames.existingIndexOf(name);
    return index >= 0 && has(index);
  }

  /** Sets a dimension, making a scalar present. */
  public Resource set(int index, double value) {
    ensure(index);
    values[index] = value;
    return this;
  }

  /** Sets a named dimension in internal units. */
  public Resource set(String name, double value) {
    return set(ResourceNames.indexOf(name), value);
  }

  /** Removes a scalar dimension (cpu and memory become 0 instead). */
  public Resource remove(int index) {
    if (index < 2) {
      values[index] = 0;
    } else if (index < values.length) {
      values[index] = ABSENT;
    }
    return this;
  }

  @Override
  public int width() {
    return values.length;
  }

  @Override
  public int[] scalarIndices() {
    int n = 0;
    for (int i = 2; i < values.length; i++) {
      if (!Double.isNaN(values[i])) {
        n++;
      }
    }
    int[] out = new int[n];
    n = 0;
    for (int i = 2; i < values.length; i++) {
      if (!Double.isNaN(values[i])) {
        out[n++] = i;
      }
    }
    return out;
  }

  @Override
  public boolean hasScalars() {
    for (int i = 2; i < values.length; i++) {
      if (!Double.isNaN(values[i])) {
        return true;
      }
    }
    return false;
  }

  private void addScalar(int index, double v) {
    ensure(index);
    values[index] = Double.isNaN(values[index]) ? v : values[index] + v;
  }

  // Grows to what is needed, not to every name known: a session sums many small resources (a job's
  // tasks, a queue's jobs), and widening each to every name the cluster ever showed, then marking
  // the new slots absent, cost more than the sums.
  private void ensure(int index) {
    if (index >= values.length) {
      int old = values.length;
      values = Arrays.copyOf(values, index + 1);
      Arrays.fill(values, old, values.length, ABSENT);
    }
  }

  /** The highest index of a present scalar, or 1 (memory) when there is none. */
  private static int lastScalar(Resource r) {
    for (int i = r.values.length - 1; i >= 2; i--) {
      if (!Double.isNaN(r.values[i])) {
        return i;
      }
    }
    return 1;
  }

  private double raw(int index) {
    return index < values.length ? values[index] : ABSENT;
  }

  // ---------------------------------------------------------------- arithmetic

  /** Adds cpu, memory and every scalar of {@code rr}; {@link #maxTaskNum()} is untouched. */
  public Resource add(ResourceView rrView) {
    Resource rr = of(rrView);
    ensure(lastScalar(rr));
    values[0] += rr.values[0];
    values[1] += rr.values[1];
    for (int i = 2; i < rr.values.length; i++) {
      double v = rr.values[i];
      if (!Double.isNaN(v)) {
        addScalar(i, v);
      }
    }
    return this;
  }

  /**
   * Subtracts {@code rr}. Volcano asserts {@code rr <= this} first and panics otherwise; here the
   * result may go negative, as with Volcano's {@code PANIC_ON_ERROR=false}.
   */
  public Resource sub(ResourceView rrView) {
    Resource rr = of(rrView);
    ensure(lastScalar(rr));
    values[0] -= rr.values[0];
    values[1] -= rr.values[1];
    for (int i = 2; i < rr.values.length; i++) {
      double v = rr.values[i];
      if (!Double.isNaN(v)) {
        addScalar(i, -v);
      }
    }
    return this;
  }

  /** Multiplies cpu, memory and every present scalar by {@code f}. */
  public Resource multiply(double f) {
    for (int i = 0; i < values.length; i++) {
      values[i] *= f;
    }
    return this;
  }

  /** Per-dimension max ({@code SetMaxResource}); scalars only in {@code rr} are copied. */
  public Resource setMax(ResourceView rrView) {
    Resource rr = of(rrView);
    values[0] = Math.max(values[0], rr.values[0]);
    values[1] = Math.max(values[1], rr.values[1]);
    for (int i = 2; i < rr.values.length; i++) {
      double v = rr.values[i];
      if (Double.isNaN(v)) {
        continue;
      }
      double mine = raw(i);
      set(i, Double.isNaN(mine) ? v : Math.max(mine, v));
    }
    return this;
  }

  /**
   * {@code MinDimensionResource}: cpu and memory become the min; each scalar present here becomes
   * the min with {@code rr}'s, or, when {@code rr} lacks it, stays ({@code INFINITY}) or becomes 0
   * ({@code ZERO}). Scalars only in {@code rr} are not added.
   */
  public Resource minDimension(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    values[0] = Math.min(values[0], rr.values[0]);
    values[1] = Math.min(values[1], rr.values[1]);
    for (int i = 2; i < values.length; i++) {
      if (Double.isNaN(values[i])) {
        continue;
      }
      double other = rr.raw(i);
      if (Double.isNaN(other)) {
        if (d == Dimension.ZERO) {
          values[i] = 0;
        }
      } else {
        values[i] = Math.min(values[i], other);
      }
    }
    return this;
  }

  /**
   * {@code ExceededPart}: per dimension {@code max(0, l − r)} over the union of scalar names
   * (absent counts as 0). Returns a new resource.
   */
  public static Resource exceededPart(ResourceView lView, ResourceView rView) {
    Resource l = of(lView);
    Resource r = of(rView);
    if (l == null) {
      return empty();
    }
    if (r == null) {
      return l.copy();
    }
    Resource out = empty();
    out.values[0] = Math.max(0, l.values[0] - r.values[0]);
    out.values[1] = Math.max(0, l.values[1] - r.values[1]);
    int width = Math.max(l.values.length, r.values.length);
    for (int i = 2; i < width; i++) {
      double a = l.raw(i);
      double b = r.raw(i);
      if (Double.isNaN(a) && Double.isNaN(b)) {
        continue;
      }
      double av = Double.isNaN(a) ? 0 : a;
      double bv = Double.isNaN(b) ? 0 : b;
      out.set(i, av > bv ? av - bv : 0);
    }
    return out;
  }

  public Resource[] diff(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    Resource inc = empty();
    Resource dec = empty();
    diffInto(0, values[0], rr.values[0], inc, dec);
    diffInto(1, values[1], rr.values[1], inc, dec);
    double missing = d == Dimension.ZERO ? 0 : -1;
    int width = Math.max(values.length, rr.values.length);
    for (int i = 2; i < width; i++) {
      double a = raw(i);
      double b = rr.raw(i);
      if (Double.isNaN(a) && Double.isNaN(b)) {
        continue;
      }
      diffInto(i, Double.isNaN(a) ? missing : a, Double.isNaN(b) ? missing : b, inc, dec);
    }
    return new Resource[] {inc, dec};
  }

  private static void diffInto(int i, double l, double r, Resource inc, Resource dec) {
    if (i < 2) {
      if (l > r) {
        inc.values[i] += l - r;
      } else {
        dec.values[i] += r - l;
      }
    } else if (l > r) {
      inc.addScalar(i, l - r);
    } else {
      dec.addScalar(i, r - l);
    }
  }

  // ---------------------------------------------------------------- predicates

  private static boolean leq(double l, double r) {
    return l < r || Math.abs(l - r) < EPSILON;
  }

  @Override
  public boolean isEmpty() {
    if (values[0] >= EPSILON || values[1] >= EPSILON) {
      return false;
    }
    for (int i = 3; i < values.length; i++) {
      if (!Double.isNaN(values[i]) && values[i] >= EPSILON) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean isZero(String name) {
    return get(name) < EPSILON;
  }

  @Override
  public int[] resourceIndices() {
    int[] out = new int[values.length];
    int n = 0;
    for (int i = 0; i < values.length; i++) {
      double v = values[i];
      if (!Double.isNaN(v) && v >= EPSILON) {
        out[n++] = i;
      }
    }
    return Arrays.copyOf(out, n);
  }

  @Override
  public List<String> resourceNames() {
    List<String> names = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (int i : resourceIndices()) {
      // Indices past pods follow the order names were first seen in, which differs from run to
      // run: the others go in name order.
      (i <= ResourceNames.PODS_INDEX ? names : others).add(ResourceNames.nameOf(i));
    }
    others.sort(null);
    names.addAll(others);
    return names;
  }

  // ---------------------------------------------------------------- comparisons (§1.5)

  @Override
  public boolean less(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    return compareAll(rr, d, false, true);
  }

  @Override
  public boolean lessEqual(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    return compareAll(rr, d, true, true);
  }

  private boolean compareAll(Resource rr, Dimension d, boolean orEqual, boolean infinityRule) {
    if (!cmp(values[0], rr.values[0], orEqual) || !cmp(values[1], rr.values[1], orEqual)) {
      return false;
    }
    if (infinityRule && d == Dimension.INFINITY) {
      for (int i = 2; i < rr.values.length; i++) {
        if (!Double.isNaN(rr.values[i]) && Double.isNaN(raw(i))) {
          return false;
        }
      }
    }
    for (int i = 2; i < values.length; i++) {
      double l = values[i];
      if (Double.isNaN(l)) {
        continue;
      }
      double r = rr.raw(i);
      if (Double.isNaN(r)) {
        if (d == Dimension.INFINITY) {
          continue;
        }
        r = 0;
      }
      if (!cmp(l, r, orEqual)) {
        return false;
      }
    }
    return true;
  }

  private static boolean cmp(double l, double r, boolean orEqual) {
    return orEqual ? leq(l, r) : l < r;
  }

  @Override
  public List<String> lessEqualWithResourcesName(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    List<String> insufficient = new ArrayList<>(0);
    if (!leq(values[0], rr.values[0])) {
      insufficient.add(ResourceNames.CPU);
    }
    if (!leq(values[1], rr.values[1])) {
      insufficient.add(ResourceNames.MEMORY);
    }
    List<String> scalars = null;
    for (int i = 2; i < values.length; i++) {
      double l = values[i];
      if (Double.isNaN(l)) {
        continue;
      }
      double r = rr.raw(i);
      if (Double.isNaN(r)) {
        if (d == Dimension.INFINITY) {
          continue;
        }
        r = 0;
      }
      if (!leq(l, r)) {
        if (scalars == null) {
          scalars = new ArrayList<>(2);
        }
        scalars.add(ResourceNames.nameOf(i));
      }
    }
    if (scalars != null) {
      scalars.sort(null);
      insufficient.addAll(scalars);
    }
    return insufficient;
  }

  @Override
  public boolean fits(ResourceView rrView) {
    Resource rr = of(rrView);
    return compareAll(rr, Dimension.ZERO, true, false);
  }

  @Override
  public boolean fitsWithin(ResourceView baseView, ResourceView plusView, ResourceView minusView) {
    Resource base = of(baseView);
    Resource plus = of(plusView);
    Resource minus = of(minusView);
    if (!leq(values[0], base.values[0] + plus.values[0] - minus.values[0])
        || !leq(values[1], base.values[1] + plus.values[1] - minus.values[1])) {
      return false;
    }
    for (int i = 2; i < values.length; i++) {
      double l = values[i];
      if (Double.isNaN(l)) {
        continue;
      }
      if (!leq(l, base.get(i) + plus.get(i) - minus.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public List<String> lessEqualWithDimensionAndResourcesName(
      ResourceView rrView, ResourceView reqView) {
    Resource rr = of(rrView);
    Resource req = of(reqView);
    if (rr == null) {
      return resourceNames();
    }
    if (req == null) {
      return lessEqualWithResourcesName(rr, Dimension.ZERO);
    }
    List<String> insufficient = new ArrayList<>(0);
    if (req.values[0] > 0 && values[0] > rr.values[0]) {
      insufficient.add(ResourceNames.CPU);
    }
    if (req.values[1] > 0 && values[1] > rr.values[1]) {
      insufficient.add(ResourceNames.MEMORY);
    }
    if (!hasScalars()) {
      return insufficient;
    }
    List<String> scalars = null;
    for (int i = 3; i < req.values.length; i++) {
      double q = req.values[i];
      if (Double.isNaN(q) || q <= 0) {
        continue;
      }
      if (get(i) > rr.get(i)) {
        if (scalars == null) {
          scalars = new ArrayList<>(2);
        }
        scalars.add(ResourceNames.nameOf(i));
      }
    }
    if (scalars != null) {
      scalars.sort(null);
      insufficient.addAll(scalars);
    }
    return insufficient;
  }

  @Override
  public boolean lessPartly(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    return partly(rr, d, false);
  }

  @Override
  public boolean lessEqualPartly(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    return partly(rr, d, true);
  }

  private boolean partly(Resource rr, Dimension d, boolean orEqual) {
    if (cmp(values[0], rr.values[0], orEqual) || cmp(values[1], rr.values[1], orEqual)) {
      return true;
    }
    if (d == Dimension.ZERO) {
      for (int i = 2; i < rr.values.length; i++) {
        if (!Double.isNaN(rr.values[i]) && Double.isNaN(raw(i))) {
          return true;
        }
      }
    }
    for (int i = 2; i < values.length; i++) {
      double l = values[i];
      if (Double.isNaN(l)) {
        continue;
      }
      double r = rr.raw(i);
      if (Double.isNaN(r)) {
        if (d == Dimension.INFINITY) {
          return true;
        }
        r = 0;
      }
      if (cmp(l, r, orEqual)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<String> lessEqualPartlyWithDimension(ResourceView rrView, ResourceView reqView) {
    Resource rr = of(rrView);
    Resource req = of(reqView);
    List<String> names = new ArrayList<>(0);
    if (req == null) {
      return names;
    }
    if (req.values[0] > 0 && leq(values[0], rr.values[0])) {
      names.add(ResourceNames.CPU);
    }
    if (req.values[1] > 0 && leq(values[1], rr.values[1])) {
      names.add(ResourceNames.MEMORY);
    }
    for (int i = 3; i < req.values.length; i++) {
      double q = req.values[i];
      if (!Double.isNaN(q) && q > 0 && leq(get(i), rr.get(i))) {
        names.add(ResourceNames.nameOf(i));
      }
    }
    return names;
  }

  @Override
  public List<String> lessEqualPartlyWithDimensionZeroFiltered(
      ResourceView rrView, ResourceView reqView) {
    Resource rr = of(rrView);
    Resource req = of(reqView);
    if (req == null) {
      return new ArrayList<>(0);
    }
    Resource filtered = req.copy();
    for (int i = 0; i < filtered.values.length; i++) {
      if (Double.isNaN(filtered.values[i])) {
        continue;
      }
      if (get(i) < EPSILON && rr.get(i) < EPSILON) {
        filtered.values[i] = i < 2 ? 0 : ABSENT;
      }
    }
    return lessEqualPartlyWithDimension(rr, filtered);
  }

  @Override
  public boolean equal(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    if (Math.abs(values[0] - rr.values[0]) >= EPSILON
        || Math.abs(values[1] - rr.values[1]) >= EPSILON) {
      return false;
    }
    for (int i = 2; i < values.length; i++) {
      if (!Double.isNaN(values[i]) && Math.abs(values[i] - rr.get(i)) >= EPSILON) {
        return false;
      }
    }
    return true;
  }

  @Override
  public List<String> greaterPartly(ResourceView rrView, Dimension d) {
    Resource rr = of(rrView);
    return lessEqualWithResourcesName(rr, d);
  }

  @Override
  public boolean greaterPartlyWithDimension(ResourceView rrView, ResourceView reqView) {
    Resource rr = of(rrView);
    Resource req = of(reqView);
    if (rr == null || req == null) {
      return false;
    }
    if (req.values[0] > 0 && values[0] > rr.values[0]) {
      return true;
    }
    if (req.values[1] > 0 && values[1] > rr.values[1]) {
      return true;
    }
    for (int i = 3; i < req.values.length; i++) {
      double q = req.values[i];
      if (!Double.isNaN(q) && q > 0 && get(i) > rr.get(i)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean greaterPartlyWithRelevantDimensions(ResourceView rrView, ResourceView reqView) {
    Resource rr = of(rrView);
    Resource req = of(reqView);
    if (rr == null || req == null) {
      return false;
    }
    Resource relevant = empty();
    if (rr.values[0] >= EPSILON) {
      relevant.values[0] = req.values[0];
    }
    if (rr.values[1] >= EPSILON) {
      relevant.values[1] = req.values[1];
    }
    for (int i = 2; i < req.values.length; i++) {
      if (!Double.isNaN(req.values[i]) && rr.has(i)) {
        relevant.set(i, req.values[i]);
      }
    }
    return greaterPartlyWithDimension(rr, relevant);
  }

  /**
   * {@code FitDelta(rr)}: for each dimension with {@code rr > 0}, {@code this −= rr + ε} (an absent
   * scalar starts at 0). A negative result means insufficient.
   */
  public Resource fitDelta(ResourceView rrView) {
    Resource rr = of(rrView);
    if (rr.values[0] > 0) {
      values[0] -= rr.values[0] + EPSILON;
    }
    if (rr.values[1] > 0) {
      values[1] -= rr.values[1] + EPSILON;
    }
    for (int i = 2; i < rr.values.length; i++) {
      double v = rr.values[i];
      if (!Double.isNaN(v) && v > 0) {
        set(i, get(i) - (v + EPSILON));
      }
    }
    return this;
  }

  /**
   * {@code Intersection(a, b)}: names in both {@code ResourceNames()} (≥ ε), {@code pods} included.
   */
  public static List<String> intersection(ResourceView aView, ResourceView bView) {
    Resource a = of(aView);
    Resource b = of(bView);
    List<String> names = new ArrayList<>(0);
    for (int i : a.resourceIndices()) {
      if (b.get(i) >= EPSILON && b.has(i)) {
        names.add(ResourceNames.nameOf(i));
      }
    }
    return names;
  }

  /** {@code IntersectionWithIgnoredScalarResources}: {@link #intersection} without {@code pods}. */
  public static List<String> intersectionIgnoringPods(ResourceView aView, ResourceView bView) {
    Resource a = of(aView);
    Resource b = of(bView);
    List<String> names = intersection(a, b);
    names.remove(ResourceNames.PODS);
    return names;
  }

  /** {@code helpers.Share(l, r)}: {@code r == 0 ? (l == 0 ? 0 : 1) : l / r}. */
  public static double share(double l, double r) {
    if (r == 0) {
      return l == 0 ? 0 : 1;
    }
    return l / r;
  }

  /**
   * {@code helpers.Min(l, r)}: cpu and memory min; for each scalar of {@code l}, the min with
   * {@code r}'s (absent as 0), only when both have scalars.
   */
  public static Resource min(ResourceView lView, ResourceView rView) {
    Resource l = of(lView);
    Resource r = of(rView);
    Resource out = of(Math.min(l.values[0], r.values[0]), Math.min(l.values[1], r.values[1]));
    if (!l.hasScalars() || !r.hasScalars()) {
      return out;
    }
    for (int i : l.scalarIndices()) {
      out.set(i, Math.min(l.values[i], r.get(i)));
    }
    return out;
  }

  /** {@code helpers.Max(l, r)}: cpu and memory max; scalars over the union, negatives skipped. */
  public static Resource max(ResourceView lView, ResourceView rView) {
    Resource l = of(lView);
    Resource r = of(rView);
    Resource out = of(Math.max(l.values[0], r.values[0]), Math.max(l.values[1], r.values[1]));
    for (Resource side : new Resource[] {l, r}) {
      for (int i : side.scalarIndices()) {
        double v = side.values[i];
        if (v < 0) {
          continue;
        }
        double cur = out.raw(i);
        out.set(i, Double.isNaN(cur) ? v : Math.max(cur, v));
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- conversion

  @Override
  public Map<String, Quantity> toList() {
    Map<String, Quantity> out = new LinkedHashMap<>();
    out.put(ResourceNames.CPU, Quantity.ofMilli((long) values[0]));
    out.put(ResourceNames.MEMORY, Quantity.ofBytes((long) values[1]));
    for (int i : scalarIndices()) {
      String name = ResourceNames.nameOf(i);
      out.put(
          name,
          i == ResourceNames.PODS_INDEX
              ? Quantity.of((long) values[i])
              : Quantity.ofMilli((long) values[i]));
    }
    return out;
  }

  @Override
  public boolean deepEquals(ResourceView oView) {
    Resource o = of(oView);
    int width = Math.max(values.length, o.values.length);
    for (int i = 0; i < width; i++) {
      double a = raw(i);
      double b = o.raw(i);
      if (Double.isNaN(a) != Double.isNaN(b) || (!Double.isNaN(a) && a != b)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Quantity> e : toList().entrySet()) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(e.getKey()).append(' ').append(e.getValue());
    }
    return sb.toString();
  }
}
