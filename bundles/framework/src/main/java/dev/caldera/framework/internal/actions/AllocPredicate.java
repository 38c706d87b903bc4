package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceView;

/**
 * Allocate's {@code predicate} for one task: the action's own resource check on the node's future
 * idle ({@code Unschedulable "Insufficient <first short resource>"}), then the plugins' predicates.
 * A passing node whose idle already holds the task is tagged {@link NodeGradients#FITS_IDLE}, so
 * that choosing the gradient later needs no second resource comparison. Safe to call concurrently.
 */
final class AllocPredicate implements PredicateHelper.NodeCheck {

  private final ActionSession session;
  private final ResourceView request;
  private final int[] reportOrder;

  AllocPredicate(ActionSession session, TaskInfo task) {
    this.session = session;
    this.request = task.initResreq();
    this.reportOrder = NodeFit.reportOrder(request);
  }

  @Override
  public Status check(TaskInfo task, NodeInfo node) {
    int fit = NodeFit.classify(request, reportOrder, node);
    if (fit >= 0) {
      return NodeFit.insufficient(fit);
    }
    Status predicates = session.predicate(task, node);
    if (!predicates.isSuccess()) {
      return predicates;
    }
    return fit == NodeFit.FITS_IDLE ? NodeGradients.FITS_IDLE : Status.OK;
  }
}
