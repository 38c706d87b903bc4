package dev.caldera.support.placement;

import java.util.ArrayList;
import java.util.List;

/** Collects what a parse found wrong, each naming the pod and the field. */
final class Problems {

  private final String pod;
  private final List<String> found = new ArrayList<>();

  Problems(String pod) {
    this.pod = pod;
  }

  void add(String field, String expected, Object got) {
    found.add("pod " + pod + ": " + field + ": expected " + expected + ", got " + quoted(got));
  }

  private static String quoted(Object got) {
    if (got == null) {
      return "none";
    }
    return got instanceof String s ? "\"" + s + "\"" : String.valueOf(got);
  }

  List<String> list() {
    return List.copyOf(found);
  }
}
