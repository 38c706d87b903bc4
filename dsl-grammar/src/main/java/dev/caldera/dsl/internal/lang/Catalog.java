package dev.caldera.dsl.internal.lang;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.dsl.internal.eval.Frame;
import dev.caldera.dsl.internal.eval.Getters.MapGetter;
import dev.caldera.dsl.internal.eval.Getters.NumGetter;
import dev.caldera.dsl.internal.eval.Getters.StrGetter;
import dev.caldera.dsl.internal.eval.Getters.VecGetter;
import dev.caldera.dsl.internal.eval.Nav;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The attributes a policy can read, per object kind. Each is bound to a direct accessor of the
 * plugin API views; a missing object reads as "no value" (see the evaluators).
 */
public final class Catalog {

  public static final Entity<TaskInfo> TASK = new Entity<>("task", Nav::task);
  public static final Entity<JobInfo> PODGROUP = new Entity<>("podgroup", Nav::job);
  public static final Entity<QueueInfo> QUEUE = new Entity<>("queue", Nav::queue);
  public static final Entity<NodeInfo> NODE = new Entity<>("node", Nav::node);
  public static final Entity<OwnerReference> OWNER = new Entity<>("owner", Nav::owner);

  /** {@code status.state} values of a queue. */
  public static final List<String> QUEUE_STATES = List.of("Open", "Closed", "Closing", "Unknown");

  private static final String[] TASK_STATUS = taskStatusNames();
  private static final String[] PHASES = phaseNames();

  static {
    TASK.add(str("name", (f, t) -> t.name()))
        .add(str("namespace", (f, t) -> t.namespace()))
        .add(map("labels", (f, t) -> t.pod().metadata().labels()))
        .add(map("annotations", (f, t) -> t.pod().metadata().annotations()))
        .add(num("priority", (f, t) -> t.priority()))
        .add(str("priorityClass", (f, t) -> emptyAsNone(t.pod().priorityClassName())))
        .add(str("role", (f, t) -> emptyAsNone(t.taskRole())))
        .add(
            new Attr.Str<TaskInfo>(
                "status",
                Type.symbols("task status", List.of(TASK_STATUS)),
                (f, t) -> TASK_STATUS[t.status().ordinal()]))
        .add(new Attr.Bool<TaskInfo>("preemptable", (f, t) -> t.preemptable()))
        .add(new Attr.Bool<TaskInfo>("bestEffort", (f, t) -> t.bestEffort()))
        .add(age((f, t) -> t.creationTimestamp()))
        .add(vec("request", (f, t) -> t.resreq()))
        .add(new Attr.ToEntity<TaskInfo>("job", PODGROUP))
        .add(new Attr.ToEntity<TaskInfo>("podgroup", PODGROUP))
        .add(new Attr.ToEntity<TaskInfo>("queue", QUEUE))
        .add(new Attr.ToEntity<TaskInfo>("node", NODE))
        .add(new Attr.ToEntity<TaskInfo>("owner", OWNER));

    PODGROUP
        .add(str("name", (f, j) -> j.name()))
        .add(str("namespace", (f, j) -> j.namespace()))
        .add(map("labels", (f, j) -> j.podGroup().metadata().labels()))
        .add(map("annotations", (f, j) -> j.podGroup().metadata().annotations()))
        .add(num("priority", (f, j) -> j.priority()))
        .add(str("priorityClass", (f, j) -> emptyAsNone(j.podGroup().priorityClassName())))
        .add(num("minAvailable", (f, j) -> j.minAvailable()))
        .add(
            new Attr.Str<JobInfo>(
                "phase",
                Type.symbols("pod group phase", List.of(PHASES)),
                (f, j) -> PHASES[j.phase().ordinal()]))
        .add(new Attr.Bool<JobInfo>("preemptable", (f, j) -> j.preemptable()))
        .add(age((f, j) -> j.creationTimestamp()))
        .add(vec("allocated", (f, j) -> j.allocated()))
        .add(vec("request", (f, j) -> j.totalRequest()))
        .add(vec("minResources", (f, j) -> j.minResources()))
        .add(new Attr.ToEntity<JobInfo>("queue", QUEUE));

    QUEUE
        .add(str("name", (f, q) -> q.name()))
        .add(map("labels", (f, q) -> q.queue().metadata().labels()))
        .add(map("annotations", (f, q) -> q.queue().metadata().annotations()))
        .add(num("priority", (f, q) -> q.priority()))
        .add(num("weight", (f, q) -> q.weight()))
        .add(new Attr.Bool<QueueInfo>("reclaimable", (f, q) -> q.reclaimable()))
        .add(
            new Attr.Str<QueueInfo>(
                "state", Type.symbols("queue state", QUEUE_STATES), (f, q) -> q.queue().state()))
        .add(str("parent", (f, q) -> emptyAsNone(q.parent())))
        .add(age((f, q) -> q.creationTimestamp()))
        .add(new Attr.Vec<QueueInfo>("allocated", true, false, (f, q) -> f.context().allocated(q)))
        .add(new Attr.Vec<QueueInfo>("deserved", false, false, (f, q) -> f.context().deserved(q)))
        .add(
            new Attr.Vec<QueueInfo>("capability", false, true, (f, q) -> f.context().capability(q)))
        .add(new Attr.Vec<QueueInfo>("guarantee", false, false, (f, q) -> f.context().guarantee(q)))
        .add(new Attr.Num<QueueInfo>("share", Type.NUMBER, true, (f, q) -> f.context().share(q)));

    NODE.add(str("name", (f, n) -> n.name()))
        .add(map("labels", (f, n) -> n.node().metadata().labels()))
        .add(map("annotations", (f, n) -> n.node().metadata().annotations()))
        .add(vec("allocatable", (f, n) -> n.allocatable()))
        .add(vec("capacity", (f, n) -> n.capacity()))
        .add(vec("idle", (f, n) -> n.idle()))
        .add(vec("used", (f, n) -> n.used()));

    OWNER
        .add(str("kind", (f, o) -> o.kind()))
        .add(str("name", (f, o) -> o.name()))
        .add(str("apiVersion", (f, o) -> o.apiVersion()))
        .add(new Attr.Bool<OwnerReference>("controller", (f, o) -> o.controller()));
  }

  private Catalog() {}

  private static <T> Attr<T> str(String name, StrGetter<T> getter) {
    return new Attr.Str<>(name, Type.STRING, getter);
  }

  private static <T> Attr<T> num(String name, NumGetter<T> getter) {
    return new Attr.Num<>(name, Type.NUMBER, false, getter);
  }

  private static <T> Attr<T> map(String name, MapGetter<T> getter) {
    return new Attr.MapAttr<>(name, getter);
  }

  private static <T> Attr<T> vec(String name, VecGetter<T> getter) {
    return new Attr.Vec<>(name, false, false, getter);
  }

  /** {@code age}: the time since creation, in milliseconds. */
  private static <T> Attr<T> age(Created<T> created) {
    return new Attr.Num<>(
        "age", Type.DURATION, false, (f, o) -> f.now() - created.get(f, o).toEpochMilli());
  }

  @FunctionalInterface
  private interface Created<T> {
    Instant get(Frame f, T o);
  }

  private static String emptyAsNone(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static String[] taskStatusNames() {
    List<String> names = new ArrayList<>();
    for (TaskStatus s : TaskStatus.values()) {
      String n = s.name();
      names.add(n.charAt(0) + n.substring(1).toLowerCase(Locale.ROOT));
    }
    return names.toArray(new String[0]);
  }

  private static String[] phaseNames() {
    List<String> names = new ArrayList<>();
    for (PodGroupPhase p : PodGroupPhase.values()) {
      names.add(p.name());
    }
    return names.toArray(new String[0]);
  }
}
