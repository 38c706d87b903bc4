package dev.caldera.plugins.extender;

/**
 * The calls an extender may answer, each enabled by giving its path ("verb") under its argument
 * key; the call POSTs to {@code <urlPrefix>/<verb>}.
 */
enum Verb {
  ON_SESSION_OPEN("extender.onSessionOpenVerb"),
  ON_SESSION_CLOSE("extender.onSessionCloseVerb"),
  PREDICATE("extender.predicateVerb"),
  PRIORITIZE("extender.prioritizeVerb"),
  PREEMPTABLE("extender.preemptableVerb"),
  RECLAIMABLE("extender.reclaimableVerb"),
  QUEUE_OVERUSED("extender.queueOverusedVerb"),
  JOB_ENQUEUEABLE("extender.jobEnqueueableVerb"),
  JOB_ENQUEUED("extender.jobEnqueuedVerb"),
  JOB_READY("extender.jobReadyVerb"),
  ALLOCATE_FUNC("extender.allocateFuncVerb"),
  DEALLOCATE_FUNC("extender.deallocateFuncVerb");

  private final String key;

  Verb(String key) {
    this.key = key;
  }

  /** The argument key that sets this verb's path, e.g. {@code extender.predicateVerb}. */
  String key() {
    return key;
  }
}
