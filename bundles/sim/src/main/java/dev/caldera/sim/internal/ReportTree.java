package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.framework.SessionResult;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.SessionReport;

/** A report as the JSON tree of {@code scenario-format.md} ("The report"). */
public final class ReportTree {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ReportTree() {}

  /**
   * The report's tree.
   *
   * @param withCheck whether to add {@code check} (passed and mismatches)
   */
  public static ObjectNode of(ScenarioReport r, boolean withCheck) {
    ObjectNode root = NODES.objectNode();
    root.put("scenario", r.scenario());
    ArrayNode sessions = root.putArray("sessions");
    for (SessionReport s : r.sessions()) {
      ObjectNode o = sessions.addObject();
      o.put("index", s.index());
      o.put("durationMillis", Math.round(s.durationMillis() * 1000) / 1000.0);
      ArrayNode binds = o.putArray("binds");
      for (SessionResult.Bind b : s.binds()) {
        ObjectNode bind = binds.addObject().put("pod", b.pod()).put("node", b.node());
        if (!b.volumes().isEmpty()) {
          ArrayNode volumes = bind.putArray("volumes");
          for (VolumeBinding v : b.volumes()) {
            ObjectNode vo = volumes.addObject().put("claim", v.claim());
            if (v.provision()) {
              vo.put("provisionOn", b.node());
            } else {
              vo.put("volume", v.volume());
            }
          }
        }
      }
      ArrayNode evictions = o.putArray("evictions");
      for (SessionResult.Eviction e : s.evictions()) {
        evictions
            .addObject()
            .put("pod", e.pod())
            .put("action", e.action())
            .put("for", emptyToNull(e.forPod()));
      }
      ArrayNode pipelined = o.putArray("pipelined");
      for (SessionResult.Pipelined p : s.pipelined()) {
        pipelined.addObject().put("pod", p.pod()).put("node", p.node());
      }
      ArrayNode groups = o.putArray("podGroups");
      s.podGroupPhaseChanges()
          .forEach((pg, phase) -> groups.addObject().put("podGroup", pg).put("phase", phase));
      ArrayNode events = o.putArray("events");
      for (SessionResult.Event e : s.events()) {
        events
            .addObject()
            .put("object", e.object())
            .put("type", e.type())
            .put("reason", e.reason())
            .put("message", e.message());
      }
    }
    if (withCheck) {
      ObjectNode check = root.putObject("check");
      check.put("passed", r.mismatches().isEmpty());
      ArrayNode mismatches = check.putArray("mismatches");
      r.mismatches().forEach(mismatches::add);
    }
    return root;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
