package dev.caldera.framework.internal.session;

import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Volcano's {@code framework.Statement}: operations change the session at once and reach the
 * cluster only on {@link #commit()}; {@link #discard()} undoes them newest first. The changes
 * themselves are the {@link Ledger}'s.
 */
final class StatementImpl implements Statement {

  private enum Kind {
    EVICT,
    PIPELINE,
    ALLOCATE
  }

  private record Operation(Kind kind, TaskState task, String reason) {}

  private final Ledger ledger;
  private final List<Operation> operations = new ArrayList<>();

  StatementImpl(Ledger ledger) {
    this.ledger = ledger;
  }

  @Override
  public void evict(TaskInfo task, String reason) {
    TaskState t = Ledger.task(task);
    ledger.evict(t);
    operations.add(new Operation(Kind.EVICT, t, reason));
  }

  @Override
  public Status pipeline(TaskInfo task, NodeInfo node, boolean evictionOccurred) {
    TaskState t = Ledger.task(task);
    Status status = ledger.pipeline(t, Ledger.node(node), evictionOccurred);
    if (status.isSuccess()) {
      operations.add(new Operation(Kind.PIPELINE, t, ""));
    }
    return status;
  }

  @Override
  public Status allocate(TaskInfo task, NodeInfo node) {
    TaskState t = Ledger.task(task);
    Status status = ledger.allocate(t, Ledger.node(node));
    if (status.isSuccess()) {
      operations.add(new Operation(Kind.ALLOCATE, t, ""));
    }
    return status;
  }

  @Override
  public void commit() {
    for (Operation op : operations) {
      op.task.setLastTransaction(null, null);
      switch (op.kind) {
        case EVICT -> ledger.commitEvict(op.task, op.reason);
        case PIPELINE -> {
          // Pipelining is never sent to the cluster; it shows at session close.
        }
        case ALLOCATE -> ledger.commitBind(op.task);
      }
    }
    operations.clear();
  }

  @Override
  public void discard() {
    for (int i = operations.size() - 1; i >= 0; i--) {
      Operation op = operations.get(i);
      op.task.setLastTransaction(op.task.status, op.task.nodeName);
      switch (op.kind) {
        case EVICT -> ledger.undoEvict(op.task);
        case PIPELINE, ALLOCATE -> ledger.undoPlacement(op.task);
      }
    }
    operations.clear();
  }

  @Override
  public void merge(Statement other) {
    StatementImpl o = (StatementImpl) other;
    operations.addAll(o.operations);
    o.operations.clear();
  }

  @Override
  public boolean isEmpty() {
    return operations.isEmpty();
  }
}
