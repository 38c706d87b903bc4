package dev.caldera.dsl.internal.tree;

import java.util.List;

/**
 * {@code classify NAME as a | b | c { from ... otherwise c }}.
 *
 * @param otherwise null when missing (the checker reports it)
 */
public record Classify(
    String name,
    Span nameSpan,
    List<ClassName> classes,
    List<Source> sources,
    ClassName otherwise,
    Span span,
    Span end)
    implements Declaration {

  public Classify {
    classes = List.copyOf(classes);
    sources = List.copyOf(sources);
  }

  /**
   * {@code from EXPR} or {@code from EXPR { key: class, ... }}.
   *
   * @param mapping null for a direct source, whose value must be one of the declared class names
   */
  public record Source(Expr expr, List<MappingEntry> mapping, Span span) {
    public Source {
      mapping = mapping == null ? null : List.copyOf(mapping);
    }
  }

  /** {@code key: class} in a source's mapping. */
  public record MappingEntry(String key, Span keySpan, ClassName value) {}
}
