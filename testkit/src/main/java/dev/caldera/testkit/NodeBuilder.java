package dev.caldera.testkit;

import dev.caldera.api.model.Node;

/** Builds a {@link Node}: {@code NodeBuilder.node("n1").allocatable("cpu", "4").build()}. */
public final class NodeBuilder extends AbstractNodeBuilder<NodeBuilder> {

  private NodeBuilder(String name) {
    super(name);
  }

  /** A node called {@code name}. */
  public static NodeBuilder node(String name) {
    return new NodeBuilder(name);
  }

  @Override
  protected NodeBuilder self() {
    return this;
  }

  /** The node. */
  public Node build() {
    return buildNode();
  }
}
