package dev.caldera.admin.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which {@code Host} headers the admin server answers, against DNS rebinding: a web page whose name
 * an attacker points at this host would otherwise read every unauthenticated {@code GET}. Allowed:
 * IP literals (a page reached by IP address is that address's own origin), {@code localhost} and
 * names under {@code .localhost}, this machine's (the pod's) host names, and the configured names
 * ({@code *} allows any). A request without a {@code Host} (HTTP/1.0) is answered.
 */
final class HostCheck {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final Set<String> names = new LinkedHashSet<>();
  private final boolean any;

  /**
   * @param configured extra names (case-insensitive, without port); {@code *} allows every name
   */
  HostCheck(List<String> configured) {
    boolean star = false;
    for (String name : configured) {
      String n = name.strip().toLowerCase(Locale.ROOT);
      if (n.equals("*")) {
        star = true;
      } else if (!n.isEmpty()) {
        names.add(n);
      }
    }
    this.any = star;
    names.add("localhost");
    ownNames().forEach(n -> names.add(n.toLowerCase(Locale.ROOT)));
  }

  /** The pod's (machine's) own names: its host name, {@code $HOSTNAME}, its canonical name. */
  private static Set<String> ownNames() {
    Set<String> out = new LinkedHashSet<>();
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      out.add(env.strip());
    }
    try {
      InetAddress local = InetAddress.getLocalHost();
      out.add(local.getHostName());
      out.add(local.getCanonicalHostName());
    } catch (UnknownHostException e) {
      // No name for this host: IP literals and the configured names still work.
    }
    return out;
  }

  /** Whether a request with this {@code Host} header (null when absent) is answered. */
  boolean allows(String hostHeader) {
    if (any || hostHeader == null) {
      return true;
    }
    String host = hostOf(hostHeader.strip().toLowerCase(Locale.ROOT));
    if (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    return host.startsWith("[")
        || IPV4.matcher(host).matches()
        || host.equals("localhost")
        || host.endsWith(".localhost")
        || names.contains(host);
  }

  /** The header without its port: {@code [::1]:8080} → {@code [::1]}, {@code a:80} → {@code a}. */
  private static String hostOf(String header) {
    if (header.startsWith("[")) {
      int end = header.indexOf(']');
      return end < 0 ? header : header.substring(0, end + 1);
    }
    int colon = header.lastIndexOf(':');
    return colon < 0 ? header : header.substring(0, colon);
  }

  /** The 421 answer's text. */
  static String refusal(String hostHeader) {
    return "Host \""
        + hostHeader
        + "\" is not one this admin server answers for (it answers IP addresses, localhost and"
        + " this host's names): add the name with --admin-allowed-hosts (OSGi: allowed.hosts)";
  }
}
