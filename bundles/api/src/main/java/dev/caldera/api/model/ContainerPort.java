package dev.caldera.api.model;

/** A container port; only ports with {@code hostPort > 0} occupy the node. */
public record ContainerPort(int containerPort, int hostPort, String protocol, String hostIP) {
  public ContainerPort {
    protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    hostIP = hostIP == null || hostIP.isEmpty() ? "0.0.0.0" : hostIP;
  }
}
