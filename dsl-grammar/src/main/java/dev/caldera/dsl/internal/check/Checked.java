package dev.caldera.dsl.internal.check;

import dev.caldera.dsl.internal.tree.Classify;
import dev.caldera.dsl.internal.tree.Expr;
import dev.caldera.dsl.internal.tree.PolicyFile;
import dev.caldera.dsl.internal.tree.PreemptiveBlock;
import dev.caldera.dsl.internal.tree.ReclaimBlock;
import java.util.List;
import java.util.Map;

/**
 * A policy that passed the checker, with what the checker resolved: the classifiers in declaration
 * order, where each class name lives, and the meaning of every expression.
 *
 * @param classIndex class name → {classifier, class index}
 * @param reclaim null when the policy has no reclaim block
 * @param preemptive null when the policy has no preemptive block
 */
public record Checked(
    PolicyFile file,
    List<Classify> classifiers,
    Map<String, int[]> classIndex,
    Map<Expr, Meaning> meanings,
    ReclaimBlock reclaim,
    PreemptiveBlock preemptive,
    boolean usesAllocation) {}
