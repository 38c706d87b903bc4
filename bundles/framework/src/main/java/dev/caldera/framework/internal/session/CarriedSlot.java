package dev.caldera.framework.internal.session;

/**
 * A node or job of the snapshot being opened. It keeps the last session's state of it while every
 * task added so far is the one at the same place there; at the first task that is not, it builds a
 * state of its own from the tasks matched so far and goes on with that one.
 *
 * @param <S> the state: {@link NodeState} or {@link JobState}
 */
abstract class CarriedSlot<S> {

  private S carried;
  private S own;
  private int matched;

  /**
   * @param carried the last session's state, when nothing of it changed since; else null
   */
  CarriedSlot(S carried) {
    this.carried = carried;
  }

  /** A new state with no task. */
  abstract S newState();

  /** How many tasks {@code state} was opened with. */
  abstract int openedCount(S state);

  /** The task {@code state} was opened with at {@code i}, in the order they were added. */
  abstract TaskState openedAt(S state, int i);

  abstract void addTask(S state, TaskState task);

  /** Makes the last session's state this session's. */
  abstract void reopen(S state);

  /** Ends the opening of a state of this session's own. */
  abstract void opened(S state);

  final void add(TaskState task) {
    if (carried != null) {
      if (matched < openedCount(carried) && openedAt(carried, matched) == task) {
        matched++;
        return;
      }
      ownFromMatched();
    }
    addTask(building(), task);
  }

  /** The state being built: the carried one while every task matched, else this slot's own. */
  final S building() {
    if (carried != null) {
      return carried;
    }
    if (own == null) {
      own = newState();
    }
    return own;
  }

  /**
   * The state the session opens with: the carried one when it had exactly the tasks added, else
   * this slot's own.
   */
  final S state() {
    if (carried != null) {
      if (matched == openedCount(carried)) {
        reopen(carried);
        return carried;
      }
      ownFromMatched();
    }
    S state = building();
    opened(state);
    return state;
  }

  private void ownFromMatched() {
    S had = carried;
    carried = null;
    own = newState();
    for (int i = 0; i < matched; i++) {
      addTask(own, openedAt(had, i));
    }
  }
}
