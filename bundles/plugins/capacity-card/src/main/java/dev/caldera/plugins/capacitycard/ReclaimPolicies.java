package dev.caldera.plugins.capacitycard;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyLibrary;
import dev.caldera.dsl.ReportedErrors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the plugin's reclaim arguments into a compiled reclaim policy of the framework's {@link
 * PolicyLibrary}. {@code reclaimPolicy} names a policy among the session's sources ({@code
 * session.cluster().policies()}); otherwise the plugin runs the shipped {@code tidal.policy} (a
 * resource of this bundle, copied from {@code policies/} at build time) with its owner-kind mapping
 * replaced by {@code podOwnerReferenceToServiceType}, compiled when the plugin is made.
 *
 * <p>Shared by the plugins one factory makes: the library compiles each text once, and an error of
 * the named policy's files is reported once per text; a named policy whose file turns bad keeps its
 * last good version while the file exists. Thread-safe.
 */
final class ReclaimPolicies {

  /** The shipped tidal policy's file name, the resource's and the one its diagnostics name. */
  static final String TIDAL_FILE = "tidal.policy";

  private static final Pattern IDENT = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /** The shipped tidal policy's owner-kind mapping, one line of its classify block. */
  private static final Pattern OWNER_KINDS =
      Pattern.compile("(?m)^([ \\t]*)from owner\\.kind \\{[^\\n]*\\}[ \\t]*$");

  private final PolicyLibrary library;
  private final ReportedErrors reported = new ReportedErrors();

  ReclaimPolicies(PolicyLibrary library) {
    this.library = library;
  }

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
   * @throws PluginArgumentException naming {@code podOwnerReferenceToServiceType} when the policy
   *     with this map does not compile
   */
  Policy tidal(Map<String, String> ownerKinds) {
    CompileResult r = library.compileShipped(TIDAL_FILE, tidalSource(ownerKinds));
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
    PolicyLibrary.Snapshot snapshot = library.refresh(sources);
    List<CompileResult> declaring =
        snapshot.errors().stream().filter(r -> name.equals(r.policyName())).toList();
    List<String> problems = new ArrayList<>();
    for (CompileResult r : reported.firstReports(declaring)) {
      problems.add(r.render().strip());
    }
    Policy found = snapshot.policies().get(name);
    if (found == null && problems.isEmpty()) {
      problems.add(
          "reclaim policy "
              + name
              + " is named by "
              + CardArguments.RECLAIM_POLICY
              + " but no valid .policy file declares it");
    }
    return new Lookup(found, problems);
  }

  /**
   * The tidal policy as {@code policies/tidal.policy} ships it, with its owner-kind mapping
   * replaced by {@code ownerKinds} (in its order; a kind that is not a plain identifier is quoted),
   * or by an empty line when the map is empty: then the pod group annotation alone gives the
   * service type. Every other line stays where it is, so a rule's line is the shipped file's.
   */
  static String tidalSource(Map<String, String> ownerKinds) {
    String shipped = Shipped.TIDAL;
    Matcher m = OWNER_KINDS.matcher(shipped);
    if (!m.find()) {
      throw new IllegalStateException(
          "the shipped " + TIDAL_FILE + " has no line `from owner.kind { ... }` to replace");
    }
    StringBuilder map = new StringBuilder();
    ownerKinds.forEach(
        (kind, type) -> {
          if (map.length() > 0) {
            map.append(", ");
          }
          map.append(IDENT.matcher(kind).matches() ? kind : quote(kind)).append(": ").append(type);
        });
    String line = map.length() == 0 ? "" : m.group(1) + "from owner.kind { " + map + " }";
    return shipped.substring(0, m.start()) + line + shipped.substring(m.end());
  }

  private static String quote(String s) {
    return '"'
        + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\t", "\\t")
        + '"';
  }

  /** The shipped text, read once, when first needed. */
  private static final class Shipped {
    static final String TIDAL = read();

    private static String read() {
      try (InputStream in = ReclaimPolicies.class.getResourceAsStream(TIDAL_FILE)) {
        if (in == null) {
          throw new IllegalStateException(
              "the capacity-card bundle lacks its resource " + TIDAL_FILE + " (a build error)");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the shipped " + TIDAL_FILE, e);
      }
    }
  }
}
