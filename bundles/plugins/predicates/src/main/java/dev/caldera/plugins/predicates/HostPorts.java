package dev.caldera.plugins.predicates;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.api.model.Pod;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host ports in use on a node ({@code framework.HostPortInfo}): per host IP, the set of
 * protocol/port pairs. A wanted port conflicts with a used one of the same protocol and port when
 * either side binds all addresses ({@code 0.0.0.0}) or both bind the same IP.
 */
final class HostPorts {

  static final String ALL_ADDRESSES = "0.0.0.0";
  private static final Wanted[] NONE = new Wanted[0];

  private final Map<String, Set<String>> byIp = new HashMap<>();
  private final Set<String> anyIp = new HashSet<>();

  /** One wanted host port, with its protocol/port key built once. */
  record Wanted(String ip, String protocolPort) {}

  /** The host ports {@code pod} asks for. */
  static Wanted[] wanted(Pod pod) {
    List<ContainerPort> ports = TaskFacts.hostPortsOf(pod);
    if (ports.isEmpty()) {
      return NONE;
    }
    Wanted[] out = new Wanted[ports.size()];
    for (int i = 0; i < out.length; i++) {
      ContainerPort p = ports.get(i);
      out[i] = new Wanted(p.hostIP(), key(p));
    }
    return out;
  }

  /** The ports used by these pods. */
  static HostPorts of(List<TaskInfo> pods) {
    HostPorts used = new HostPorts();
    for (TaskInfo t : pods) {
      for (ContainerPort p : TaskFacts.hostPortsOf(t.pod())) {
        String k = key(p);
        used.byIp.computeIfAbsent(p.hostIP(), ip -> new HashSet<>()).add(k);
        used.anyIp.add(k);
      }
    }
    return used;
  }

  private static String key(ContainerPort p) {
    return p.protocol() + "/" + p.hostPort();
  }

  /** Whether any wanted port conflicts with the used ones. */
  boolean conflicts(Wanted[] wanted) {
    for (Wanted w : wanted) {
      if (ALL_ADDRESSES.equals(w.ip())) {
        if (anyIp.contains(w.protocolPort())) {
          return true;
        }
      } else if (contains(ALL_ADDRESSES, w.protocolPort()) || contains(w.ip(), w.protocolPort())) {
        return true;
      }
    }
    return false;
  }

  private boolean contains(String ip, String protocolPort) {
    Set<String> set = byIp.get(ip);
    return set != null && set.contains(protocolPort);
  }
}
