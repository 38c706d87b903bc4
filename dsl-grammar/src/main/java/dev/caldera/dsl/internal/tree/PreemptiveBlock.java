package dev.caldera.dsl.internal.tree;

import java.util.List;

/**
 * {@code preemptive { rules... otherwise allow|deny }}.
 *
 * @param otherwise null when missing (the checker reports it)
 */
public record PreemptiveBlock(List<PreemptiveRule> rules, Otherwise otherwise, Span span, Span end)
    implements Declaration {

  public PreemptiveBlock {
    rules = List.copyOf(rules);
  }

  /**
   * {@code allow|deny [for <class|any>] [when <condition>]}.
   *
   * @param forClass null when the rule applies to every task
   * @param when null without a condition
   */
  public record PreemptiveRule(boolean allow, ClassPattern forClass, Expr when, Span span) {}
}
