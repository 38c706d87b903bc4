package dev.caldera.framework.internal.session;

import static dev.caldera.framework.ExtensionTable.Combination.EVERY;
import static dev.caldera.framework.ExtensionTable.Combination.FIRST_FAILURE;
import static dev.caldera.framework.ExtensionTable.Combination.FIRST_TIER;
import static dev.caldera.framework.ExtensionTable.Combination.VOTE;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.JobEnqueuedFn;
import dev.caldera.api.extension.JobPipelinedFn;
import dev.caldera.api.extension.JobReadyFn;
import dev.caldera.api.extension.JobStarvingFn;
import dev.caldera.api.extension.JobValidFn;
import dev.caldera.api.extension.OverusedFn;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.SimulateAddTaskFn;
import dev.caldera.api.extension.SimulateAllocatableFn;
import dev.caldera.api.extension.SimulatePredicateFn;
import dev.caldera.api.extension.SimulateRemoveTaskFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The plugins' answers on jobs, queues and dry runs: admission votes, readiness, validity,
 * starvation, queue overuse and capability, and the simulation steps of preemption. A refusal that
 * the deciding plugin did not explain itself is reported as a blocker naming it.
 */
final class Verdicts {

  private final Tiers<OverusedFn> overused;
  private final Tiers<AllocatableFn> allocatable;
  private final List<PreemptiveFn> preemptive;
  private final Tiers<JobEnqueueableFn> jobEnqueueable;
  private final List<JobEnqueuedFn> jobEnqueued;
  private final List<JobReadyFn> jobReady;
  private final List<List<JobPipelinedFn>> jobPipelined;
  private final Tiers<JobValidFn> jobValid;
  private final List<List<JobStarvingFn>> jobStarving;
  private final List<SimulateAllocatableFn> simulateAllocatable;
  private final Tiers<SimulatePredicateFn> simulatePredicate;
  private final Tiers<SimulateAddTaskFn> simulateAddTask;
  private final Tiers<SimulateRemoveTaskFn> simulateRemoveTask;
  private final Blockers blockers;
  private final Map<String, JobState> jobs;

  Verdicts(Registrations.Frozen f, Blockers blockers, Map<String, JobState> jobs) {
    overused = f.get(ExtensionPoint.OVERUSED, FIRST_FAILURE);
    allocatable = f.get(ExtensionPoint.ALLOCATABLE, FIRST_FAILURE);
    preemptive = f.get(ExtensionPoint.PREEMPTIVE, FIRST_FAILURE).fnList();
    jobEnqueueable = f.get(ExtensionPoint.JOB_ENQUEUEABLE, VOTE);
    jobEnqueued = f.get(ExtensionPoint.JOB_ENQUEUED, EVERY).fnList();
    jobReady = f.get(ExtensionPoint.JOB_READY, FIRST_FAILURE).fnList();
    jobPipelined = f.get(ExtensionPoint.JOB_PIPELINED, VOTE).fnTiers();
    jobValid = f.get(ExtensionPoint.JOB_VALID, FIRST_FAILURE);
    jobStarving = f.get(ExtensionPoint.JOB_STARVING, FIRST_TIER).fnTiers();
    simulateAllocatable = f.get(ExtensionPoint.SIMULATE_ALLOCATABLE, FIRST_FAILURE).fnList();
    simulatePredicate = f.get(ExtensionPoint.SIMULATE_PREDICATE, FIRST_FAILURE);
    simulateAddTask = f.get(ExtensionPoint.SIMULATE_ADD_TASK, FIRST_FAILURE);
    simulateRemoveTask = f.get(ExtensionPoint.SIMULATE_REMOVE_TASK, FIRST_FAILURE);
    this.blockers = blockers;
    this.jobs = jobs;
  }

  boolean overused(QueueInfo queue) {
    List<Registered<OverusedFn>> all = overused.all();
    for (int i = 0; i < all.size(); i++) {
      Registered<OverusedFn> r = all.get(i);
      int reports = blockers.calling(r.plugin());
      boolean over = r.fn().test(queue);
      blockers.called();
      if (over) {
        if (!blockers.reportedSince(reports)) {
          blockers.putQueue(
              queue.name(),
              new Blocker(
                  Blocker.Stage.QUEUE_DESERVED,
                  blockers.action(),
                  r.plugin(),
                  "queue " + queue.name() + " is overused (plugin " + r.plugin() + ")",
                  List.of(),
                  Map.of()));
        }
        return true;
      }
    }
    return false;
  }

  boolean allocatable(QueueInfo queue, TaskInfo task) {
    // Indexed: allocate asks for every task, and an iterator would be allocated per call.
    List<Registered<AllocatableFn>> all = allocatable.all();
    for (int i = 0; i < all.size(); i++) {
      Registered<AllocatableFn> r = all.get(i);
      int reports = blockers.calling(r.plugin());
      boolean ok = r.fn().test(queue, task);
      blockers.called();
      if (!ok) {
        if (!blockers.reportedSince(reports)) {
          JobInfo job = jobs.get(task.jobId());
          if (job != null) {
            blockers.report(
                job,
                Blocker.of(
                    Blocker.Stage.QUEUE_CAPABILITY,
                    "plugin "
                        + r.plugin()
                        + " refused task "
                        + task.name()
                        + " in queue "
                        + queue.name()));
          }
        }
        return false;
      }
    }
    return true;
  }

  boolean preemptive(QueueInfo queue, List<TaskInfo> tasks) {
    for (PreemptiveFn fn : preemptive) {
      if (!fn.test(queue, tasks)) {
        return false;
      }
    }
    return true;
  }

  /** Volcano's vote rule (§4.2), naming the plugin that rejects. */
  boolean jobEnqueueable(JobInfo job) {
    for (List<Registered<JobEnqueueableFn>> tier : jobEnqueueable.tiers()) {
      boolean permitted = false;
      for (Registered<JobEnqueueableFn> r : tier) {
        int reports = blockers.calling(r.plugin());
        Vote v = r.fn().vote(job);
        blockers.called();
        if (v == Vote.REJECT) {
          if (!blockers.reportedSince(reports)) {
            blockers.put(
                job.uid(),
                new Blocker(
                    Blocker.Stage.ENQUEUE,
                    blockers.action(),
                    r.plugin(),
                    "the enqueue vote of plugin " + r.plugin() + " rejected it",
                    List.of(),
                    Map.of()));
          }
          return false;
        }
        if (v == Vote.PERMIT) {
          permitted = true;
        }
      }
      if (permitted) {
        return true;
      }
    }
    return true;
  }

  void jobEnqueued(JobInfo job) {
    jobEnqueued.forEach(fn -> fn.enqueued(job));
  }

  boolean jobReady(JobInfo job) {
    for (JobReadyFn fn : jobReady) {
      if (!fn.test(job)) {
        return false;
      }
    }
    return true;
  }

  boolean jobPipelined(JobInfo job) {
    return vote(jobPipelined, fn -> fn.vote(job));
  }

  /** Volcano's vote rule (§4.2). */
  private static <T> boolean vote(List<List<T>> tiers, Function<T, Vote> call) {
    for (List<T> tier : tiers) {
      boolean permitted = false;
      for (T fn : tier) {
        Vote v = call.apply(fn);
        if (v == Vote.REJECT) {
          return false;
        }
        if (v == Vote.PERMIT) {
          permitted = true;
        }
      }
      if (permitted) {
        return true;
      }
    }
    return true;
  }

  ValidationResult jobValid(JobInfo job) {
    for (Registered<JobValidFn> r : jobValid.all()) {
      ValidationResult v = r.fn().validate(job);
      if (v != null && !v.pass()) {
        blockers.put(
            job.uid(),
            new Blocker(
                Blocker.Stage.INVALID,
                blockers.action(),
                r.plugin(),
                v.message() == null || v.message().isEmpty() ? v.reason() : v.message(),
                List.of(),
                Map.of()));
        return v;
      }
    }
    return null;
  }

  boolean jobStarving(JobInfo job) {
    for (List<JobStarvingFn> tier : jobStarving) {
      if (tier.isEmpty()) {
        continue;
      }
      for (JobStarvingFn fn : tier) {
        if (!fn.test(job)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task) {
    for (SimulateAllocatableFn fn : simulateAllocatable) {
      if (!fn.test(state, queue, task)) {
        return false;
      }
    }
    return true;
  }

  Status simulatePredicate(CycleState state, TaskInfo task, NodeInfo node) {
    return firstFailure(simulatePredicate, fn -> fn.check(state, task, node));
  }

  Status simulateAddTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node) {
    return firstFailure(simulateAddTask, fn -> fn.add(state, taskToSchedule, taskToAdd, node));
  }

  Status simulateRemoveTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node) {
    return firstFailure(
        simulateRemoveTask, fn -> fn.remove(state, taskToSchedule, taskToRemove, node));
  }

  /** The first failing answer of every tier's functions, named by its plugin; else OK. */
  private static <F> Status firstFailure(Tiers<F> tiers, Function<F, Status> call) {
    for (Registered<F> r : tiers.all()) {
      Status s = call.apply(r.fn());
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(r.plugin());
      }
    }
    return Status.OK;
  }
}
