package dev.caldera.plugins.extender;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The extender's answers, shaped as Volcano's types in {@code plugins/extender/argument.go}. */
final class Responses {

  private Responses() {}

  /**
   * {@code PredicateResponse}: {@code {"status": "<error message>", "code": <status code>}}; an
   * empty message passes whatever the code.
   */
  record Predicate(String errorMessage, long code) {
    static Predicate decode(JsonNode root) throws ExtenderException {
      GoJson json = new GoJson("PredicateResponse");
      JsonNode o = json.object(root);
      return new Predicate(json.string(o, "status"), json.integer(o, "code"));
    }
  }

  /**
   * {@code PrioritizeResponse}: {@code {"nodeScore": {"<node>": <score>}, "errorMessage": ""}};
   * nodeScore is null when absent.
   */
  record Prioritize(Map<String, Double> nodeScore, String errorMessage) {
    static Prioritize decode(JsonNode root) throws ExtenderException {
      GoJson json = new GoJson("PrioritizeResponse");
      JsonNode o = json.object(root);
      return new Prioritize(json.numberMap(o, "nodeScore"), json.string(o, "errorMessage"));
    }
  }

  /**
   * {@code PreemptableResponse} (and {@code ReclaimableResponse}): {@code {"status": <vote>,
   * "victims": [<task>...]}}, where a vote is 1 permit, 0 abstain, -1 reject; victims are given as
   * tasks and identified by their {@code UID}.
   */
  record Evictable(long status, List<String> victimUids) {
    static Evictable decode(JsonNode root, String what) throws ExtenderException {
      GoJson json = new GoJson(what);
      JsonNode o = json.object(root);
      long status = json.integer(o, "status");
      List<String> uids = new ArrayList<>();
      GoJson task = new GoJson(what + ".victims[]");
      for (JsonNode victim : json.objects(o, "victims")) {
        uids.add(task.string(victim, "UID"));
      }
      return new Evictable(status, uids);
    }
  }

  /** {@code JobEnqueueableResponse}: {@code {"status": <vote>}}. */
  record JobEnqueueable(long status) {
    static JobEnqueueable decode(JsonNode root) throws ExtenderException {
      GoJson json = new GoJson("JobEnqueueableResponse");
      return new JobEnqueueable(json.integer(json.object(root), "status"));
    }
  }

  /** {@code QueueOverusedResponse}: {@code {"overused": <bool>}}. */
  record QueueOverused(boolean overused) {
    static QueueOverused decode(JsonNode root) throws ExtenderException {
      GoJson json = new GoJson("QueueOverusedResponse");
      return new QueueOverused(json.bool(json.object(root), "overused"));
    }
  }

  /** {@code JobReadyResponse}: {@code {"status": <bool>}}. */
  record JobReady(boolean status) {
    static JobReady decode(JsonNode root) throws ExtenderException {
      GoJson json = new GoJson("JobReadyResponse");
      return new JobReady(json.bool(json.object(root), "status"));
    }
  }

  /** {@code EventHandlerResponse}: {@code {"errorMessage": ""}}. */
  record EventHandler(String errorMessage) {
    static EventHandler decode(JsonNode root) throws ExtenderException {
      GoJson json = new GoJson("EventHandlerResponse");
      return new EventHandler(json.string(json.object(root), "errorMessage"));
    }
  }
}
