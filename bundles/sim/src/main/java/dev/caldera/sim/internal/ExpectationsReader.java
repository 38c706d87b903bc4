package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.resource.Quantity;
import dev.caldera.sim.Expectations;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a scenario's {@code expect:} block; an unknown key is an error. */
public final class ExpectationsReader {

  private static final List<String> KEYS =
      List.of(
          "bind",
          "bindCount",
          "evict",
          "evictCount",
          "pipelined",
          "podGroupPhase",
          "queueAllocated",
          "events",
          "noEvents",
          "volumes");
  private static final List<String> EVENT_KEYS = List.of("object", "reason", "message");

  private ExpectationsReader() {}

  /** The expectations; null when {@code node} is absent. */
  public static Expectations read(String file, JsonNode node) throws ScenarioException {
    Fields f = new Fields(file, null);
    if (f.object(node, "expect") == null) {
      return null;
    }
    f.onlyKeys(node, "expect", KEYS);
    Map<String, String> bind = null;
    if (!Fields.absent(node.get("bind"))) {
      bind = f.stringMap(node.get("bind"), "expect.bind");
    }
    List<String> evict = null;
    if (!Fields.absent(node.get("evict"))) {
      evict = List.copyOf(f.stringList(node.get("evict"), "expect.evict"));
    }
    Map<String, List<String>> pipelined = null;
    JsonNode pipe = f.object(node.get("pipelined"), "expect.pipelined");
    if (pipe != null) {
      Map<String, List<String>> m = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : pipe.properties()) {
        m.put(
            e.getKey(), List.copyOf(f.stringList(e.getValue(), "expect.pipelined." + e.getKey())));
      }
      pipelined = Collections.unmodifiableMap(m);
    }
    Map<String, String> phases = null;
    if (!Fields.absent(node.get("podGroupPhase"))) {
      phases = f.stringMap(node.get("podGroupPhase"), "expect.podGroupPhase");
    }
    Map<String, Map<String, Quantity>> allocated = null;
    JsonNode alloc = f.object(node.get("queueAllocated"), "expect.queueAllocated");
    if (alloc != null) {
      Map<String, Map<String, Quantity>> m = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : alloc.properties()) {
        Map<String, Quantity> q = f.quantities(e.getValue(), "expect.queueAllocated." + e.getKey());
        m.put(e.getKey(), q == null ? Map.of() : q);
      }
      allocated = Collections.unmodifiableMap(m);
    }
    List<Expectations.EventExpectation> events = events(f, node, "events");
    List<Expectations.EventExpectation> noEvents = events(f, node, "noEvents");
    Map<String, String> volumes = null;
    if (!Fields.absent(node.get("volumes"))) {
      volumes = f.stringMap(node.get("volumes"), "expect.volumes");
    }
    return new Expectations(
        bind,
        count(f, node.get("bindCount"), "expect.bindCount"),
        evict,
        count(f, node.get("evictCount"), "expect.evictCount"),
        pipelined,
        phases,
        allocated,
        events,
        noEvents,
        volumes);
  }

  /** The event expectations under {@code key}; null when absent. */
  private static List<Expectations.EventExpectation> events(Fields f, JsonNode node, String key)
      throws ScenarioException {
    if (Fields.absent(node.get(key))) {
      return null;
    }
    List<Expectations.EventExpectation> events = new ArrayList<>();
    List<JsonNode> items = f.list(node.get(key), "expect." + key);
    for (int i = 0; i < items.size(); i++) {
      String p = "expect." + key + "[" + i + "]";
      JsonNode e = f.object(items.get(i), p);
      if (e == null || e.isEmpty()) {
        throw f.error(p, "expected a mapping with message and optionally object and reason");
      }
      f.onlyKeys(e, p, EVENT_KEYS);
      events.add(
          new Expectations.EventExpectation(
              f.text(e.get("object"), p + ".object"),
              f.text(e.get("reason"), p + ".reason"),
              f.text(e.get("message"), p + ".message")));
    }
    return List.copyOf(events);
  }

  private static Integer count(Fields f, JsonNode node, String path) throws ScenarioException {
    Integer n = f.integer(node, path);
    if (n != null && n < 0) {
      throw f.error(path, "expected a count (0 or more), got " + n);
    }
    return n;
  }
}
