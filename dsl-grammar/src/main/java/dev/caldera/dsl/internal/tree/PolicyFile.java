package dev.caldera.dsl.internal.tree;

import java.util.List;

/** A whole {@code .policy} file: {@code policy NAME} and its declarations, in source order. */
public record PolicyFile(String name, Span nameSpan, List<Declaration> declarations) {

  public PolicyFile {
    declarations = List.copyOf(declarations);
  }
}
