package dev.caldera.dsl;

/**
 * What a {@link Diagnostic} is about; the codes are stable, so tests and tools may rely on them.
 */
public enum DiagnosticCode {
  /** The text does not follow the grammar. */
  SYNTAX("P100"),
  /** A name that is neither a root of the block (e.g. {@code reclaimee}) nor an allowed symbol. */
  UNKNOWN_NAME("P200"),
  /** An attribute that the object does not have. */
  UNKNOWN_ATTRIBUTE("P201"),
  /** Operands or a condition of the wrong type. */
  TYPE_MISMATCH("P202"),
  /** A quantity, duration or number that cannot be read. */
  INVALID_LITERAL("P203"),
  /** A class that no {@code classify} block declares. */
  UNKNOWN_CLASS("P300"),
  /** A declared class that no source and no {@code otherwise} can produce. */
  UNPRODUCED_CLASS("P301"),
  /** A name declared twice (classes, classify blocks, blocks, mapping keys). */
  DUPLICATE_DECLARATION("P302"),
  /** A rule that can never match because an earlier rule covers it. */
  UNREACHABLE_RULE("P400"),
  /** A block without its {@code otherwise}. */
  MISSING_OTHERWISE("P401"),
  /** A policy with neither a {@code reclaim} nor a {@code preemptive} block. */
  EMPTY_POLICY("P402"),
  /** Two files declare the same policy name. */
  DUPLICATE_POLICY("P500"),
  /** Parentheses, brackets, braces or {@code not} nested past the language's limit. */
  TOO_DEEP("P600"),
  /** A condition, path or file larger than the language's limits. */
  TOO_LARGE("P601"),
  /** A file that is not UTF-8 text. */
  NOT_UTF8("P602"),
  /**
   * A file the compiler failed on (it ran out of memory, or met a bug): the file is refused, with
   * what went wrong.
   */
  COMPILE_FAILED("P603");

  private final String code;

  DiagnosticCode(String code) {
    this.code = code;
  }

  /** The stable code, e.g. {@code P201}. */
  public String code() {
    return code;
  }
}
