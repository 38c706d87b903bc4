package dev.caldera.api.action;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A scheduling action (enqueue, allocate, backfill, preempt, reclaim, …), run once per session in
 * conf order. Actions are services too, so a bundle can add one; the built-ins live in the
 * framework.
 */
@ConsumerType
public interface Action {

  /** The name used in the conf's {@code actions} list. */
  String name();

  /** Runs the action on the session. */
  void execute(ActionSession session);
}
