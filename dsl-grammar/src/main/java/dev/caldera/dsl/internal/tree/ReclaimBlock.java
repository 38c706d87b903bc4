package dev.caldera.dsl.internal.tree;

import java.util.List;

/**
 * {@code reclaim { rules... otherwise allow|deny }}.
 *
 * @param otherwise null when missing (the checker reports it)
 */
public record ReclaimBlock(List<ReclaimRule> rules, Otherwise otherwise, Span span, Span end)
    implements Declaration {

  public ReclaimBlock {
    rules = List.copyOf(rules);
  }

  /**
   * {@code <class|any> may [not] reclaim <class|any> [when <condition>]}.
   *
   * @param when null without a condition
   */
  public record ReclaimRule(
      ClassPattern reclaimer, boolean allow, ClassPattern reclaimee, Expr when, Span span) {}
}
