package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.List;
import java.util.Map;

/**
 * A container: its requests and host ports. {@code restartPolicy} is "Always" for sidecar init
 * containers, else empty.
 */
public record Container(
    String name,
    String image,
    Map<String, Quantity> requests,
    List<ContainerPort> ports,
    String restartPolicy) {
  public Container {
    requests = requests == null ? Map.of() : Map.copyOf(requests);
    ports = ports == null ? List.of() : List.copyOf(ports);
    restartPolicy = restartPolicy == null ? "" : restartPolicy;
  }
}
