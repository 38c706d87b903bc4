package dev.caldera.api.model;

import java.util.List;

/** An image present on a node ({@code status.images}). */
public record ContainerImage(List<String> names, long sizeBytes) {
  public ContainerImage {
    names = names == null ? List.of() : List.copyOf(names);
  }
}
