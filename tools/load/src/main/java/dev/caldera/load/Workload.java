package dev.caldera.load;

/**
 * The pods a run creates, numbered from 0 in the order they are created: {@code units} gangs of
 * {@code gangSize} pods (pod group {@code gang-K}, pods {@code gang-K-J}), or, with a gang size of
 * 0, that many plain pods ({@code pod-I}).
 */
record Workload(int gangSize, int units) {

  Workload {
    if (gangSize < 0 || units < 0) {
      throw new IllegalArgumentException("gang size and units must be 0 or more");
    }
  }

  /**
   * A workload of {@code pods} pods: whole gangs, at least one, as near to {@code pods} as fits.
   */
  static Workload ofAbout(int pods, int gangSize) {
    if (gangSize == 0) {
      return new Workload(0, pods);
    }
    return new Workload(gangSize, Math.max(1, Math.round((float) pods / gangSize)));
  }

  boolean gangs() {
    return gangSize > 0;
  }

  /** Pods per unit: the gang size, or 1 for plain pods. */
  int unitSize() {
    return gangs() ? gangSize : 1;
  }

  int pods() {
    return units * unitSize();
  }

  /** The pod group of unit {@code unit}; only for gangs. */
  String groupName(int unit) {
    return "gang-" + unit;
  }

  /** The pod with index {@code pod}. */
  String podName(int pod) {
    return gangs() ? "gang-" + pod / gangSize + "-" + pod % gangSize : "pod-" + pod;
  }

  /** The unit (gang) of pod {@code pod}. */
  int unitOf(int pod) {
    return pod / unitSize();
  }

  /** The index of the pod named {@code name}, or -1 if this workload has no such pod. */
  int indexOf(String name) {
    try {
      if (gangs()) {
        if (!name.startsWith("gang-")) {
          return -1;
        }
        int dash = name.indexOf('-', 5);
        if (dash < 0) {
          return -1;
        }
        int unit = Integer.parseInt(name.substring(5, dash));
        int member = Integer.parseInt(name.substring(dash + 1));
        return unit < units && member < gangSize && name.equals(podName(unit * gangSize + member))
            ? unit * gangSize + member
            : -1;
      }
      if (!name.startsWith("pod-")) {
        return -1;
      }
      int i = Integer.parseInt(name.substring(4));
      return i < units && name.equals(podName(i)) ? i : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** "100 gangs of 10" or "1000 plain pods". */
  String describe() {
    return gangs() ? units + " gangs of " + gangSize : units + " plain pods";
  }
}
