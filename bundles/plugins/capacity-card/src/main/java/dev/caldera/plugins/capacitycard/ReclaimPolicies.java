package dev.caldera.plugins.capacitycard;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyCompiler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Turns the plugin's reclaim arguments into a compiled reclaim policy. {@code reclaimPolicy} names
 * a policy among the session's sources ({@code session.cluster().policies()}); otherwise the plugin
 * runs the tidal policy, its source generated (the pod group annotation first, then {@code
 * podOwnerReferenceToServiceType}'s owner-kind map when given) and compiled when the plugin is
 * made.
 *
 * <p>Shared by the plugins one factory makes: each source text is compiled once while it is
 * present, its errors are reported once, and a named policy whose file turns bad keeps its last
 * good version while the file exists. Thread-safe.
 */
final class ReclaimPolicies {

  /** The file name the generated tidal policy is compiled under (it appears in diagnostics). */
  static final String TIDAL_FILE = "tidal.policy";

  private static final Pattern IDENT = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private record Key(String file, String text) {}

  private final Map<String, CompileResult> tidal = new ConcurrentHashMap<>();
  private final Map<Key, CompileResult> compiled = new ConcurrentHashMap<>();
  private final Map<String, Policy> lastGood = new ConcurrentHashMap<>();
  private final Set<Key> reported = ConcurrentHashMap.newKeySet();

  /**
   * A named policy and the problems to report about it this session.
   *
   * @param policy null when the name cannot be used
   * @param problems rendered diagnostics or a missing-policy text, each to report once
   */
  record Lookup(Policy policy, List<String> problems) {}

  /**
   * The tidal policy with this owner-kind map.
   *
   * @throws PluginArgumentException naming {@code podOwnerReferenceToServiceType} when the
   *     generated policy does not compile
   */
  Policy tidal(Map<String, String> ownerKinds) {
    CompileResult r =
        tidal.computeIfAbsent(
            tidalSource(ownerKinds), text -> PolicyCompiler.compile(TIDAL_FILE, text));
    if (!r.ok()) {
      throw new PluginArgumentException(
          CardArguments.OWNER_KIND_SERVICE_TYPES,
          "plugin "
              + CapacityCardPlugin.NAME
              + ": argument "
              + CardArguments.OWNER_KIND_SERVICE_TYPES
              + " does not make a valid tidal policy:\n"
              + r.render().strip());
    }
    return r.policy();
  }

  /** The policy declared as {@code name} among the session's sources. */
  Lookup named(String name, Map<String, String> sources) {
    List<String> problems = new ArrayList<>();
    Policy found = null;
    Set<Key> present = new HashSet<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Key key = new Key(e.getKey(), e.getValue());
      present.add(key);
      CompileResult r =
          compiled.computeIfAbsent(key, k -> PolicyCompiler.compile(k.file(), k.text()));
      if (!name.equals(r.policyName())) {
        continue;
      }
      if (r.ok()) {
        if (found == null) {
          found = r.policy();
        }
      } else if (reported.add(key)) {
        problems.add(r.render().strip());
      }
    }
    compiled.keySet().retainAll(present);
    reported.retainAll(present);
    if (found != null) {
      lastGood.put(name, found);
      return new Lookup(found, problems);
    }
    Policy last = lastGood.get(name);
    if (last != null && sources.containsKey(last.fileName())) {
      return new Lookup(last, problems);
    }
    lastGood.remove(name);
    if (problems.isEmpty()) {
      problems.add(
          "reclaim policy "
              + name
              + " is named by "
              + CardArguments.RECLAIM_POLICY
              + " but no valid .policy file declares it");
    }
    return new Lookup(null, problems);
  }

  /**
   * The tidal policy as {@code policies/tidal.policy} ships it, with its owner-kind mapping
   * replaced by {@code ownerKinds} (in its order; a kind that is not a plain identifier is quoted),
   * or without one when the map is empty: then the pod group annotation alone gives the service
   * type.
   */
  static String tidalSource(Map<String, String> ownerKinds) {
    StringBuilder map = new StringBuilder();
    ownerKinds.forEach(
        (kind, type) -> {
          if (map.length() > 0) {
            map.append(", ");
          }
          map.append(IDENT.matcher(kind).matches() ? kind : quote(kind)).append(": ").append(type);
        });
    String ownerSource = map.length() == 0 ? "" : "  from owner.kind { " + map + " }\n";
    return """
        policy tidal

        # Tidal scheduling: a training workload never reclaims; any other (inference, or of
        # unknown type) may take cards back from training, and from a workload whose
        # volcano.sh/service.type names another type (batch, say); inference and workloads of
        # no known type are never victims. Generated by capacity-card
        # (podOwnerReferenceToServiceType gives the owner kinds).

        classify service as inference | training | unknown {
          from podgroup.annotations["volcano.sh/service.type"]
        %s  otherwise unknown
        }

        reclaim {
          training may not reclaim any
          any may reclaim any when reclaimee.podgroup.annotations["volcano.sh/service.type"] exists and reclaimee.podgroup.annotations["volcano.sh/service.type"] not in ["", "inference", "training"]
          any may reclaim training
          otherwise deny
        }

        preemptive {
          allow when queue.state == Open and queue.allocated + task.request <= queue.capability
          otherwise deny
        }
        """
        .formatted(ownerSource);
  }

  private static String quote(String s) {
    return '"'
        + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t")
        + '"';
  }
}
