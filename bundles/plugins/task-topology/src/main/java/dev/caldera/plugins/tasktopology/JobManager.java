package dev.caldera.plugins.tasktopology;

import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One job's topology (who attracts and repels whom, role priorities and order) and its buckets
 * ({@code manager.go}).
 */
final class JobManager {

  /** Role priorities by kind of topology: the larger, the earlier. */
  static final int SELF_ANTI_AFFINITY = 4;

  static final int INTER_AFFINITY = 3;
  static final int SELF_AFFINITY = 2;
  static final int INTER_ANTI_AFFINITY = 1;

  /** The annotation on pods naming their role. */
  static final String TASK_SPEC = "volcano.sh/task-spec";

  final List<Bucket> buckets = new ArrayList<>();

  /** Task UID → bucket; tasks outside any bucket are absent. */
  private final Map<String, Bucket> bucketOf = new HashMap<>();

  /** Task UID → role, for tasks that have a topology. */
  private final Map<String, String> roleOf = new HashMap<>();

  /** Role → highest priority of the topologies naming it. */
  final Map<String, Integer> rolePriority = new HashMap<>();

  /** Role → rank from the task order: {@code length − index}. */
  final Map<String, Integer> roleOrder = new HashMap<>();

  private final Map<String, Set<String>> interAffinity = new HashMap<>();
  private final Set<String> selfAffinity = new HashSet<>();
  private final Map<String, Set<String>> interAntiAffinity = new HashMap<>();
  private final Set<String> selfAntiAffinity = new HashSet<>();

  /** The largest bucket size (pending + placed) when the buckets were built. */
  int bucketMaxSize;

  /** Node → role → tasks of this job placed there during the session. */
  final Map<String, Map<String, Integer>> nodeRoles = new HashMap<>();

  /** {@code getTaskName}: the pod's {@value #TASK_SPEC} annotation (not the label), or empty. */
  static String roleOf(TaskInfo task) {
    String role = task.pod().metadata().annotations().get(TASK_SPEC);
    return role == null ? "" : role;
  }

  /** {@code ApplyTaskTopology}. */
  void apply(TaskTopology topology) {
    if (topology.affinity() != null) {
      addGroups(topology.affinity(), selfAffinity, interAffinity, SELF_AFFINITY, INTER_AFFINITY);
    }
    if (topology.antiAffinity() != null) {
      addGroups(
          topology.antiAffinity(),
          selfAntiAffinity,
          interAntiAffinity,
          SELF_ANTI_AFFINITY,
          INTER_ANTI_AFFINITY);
    }
    if (topology.taskOrder() != null) {
      int length = topology.taskOrder().size();
      for (int i = 0; i < length; i++) {
        roleOrder.put(topology.taskOrder().get(i), length - i);
      }
    }
  }

  private void addGroups(
      List<List<String>> groups,
      Set<String> self,
      Map<String, Set<String>> inter,
      int selfPriority,
      int interPriority) {
    for (List<String> group : groups) {
      if (group.size() == 1) {
        self.add(group.get(0));
        markPriority(group.get(0), selfPriority);
        continue;
      }
      for (int i = 0; i < group.size(); i++) {
        String src = group.get(i);
        for (int j = 0; j < i; j++) {
          String dst = group.get(j);
          inter.computeIfAbsent(src, k -> new HashSet<>()).add(dst);
          inter.computeIfAbsent(dst, k -> new HashSet<>()).add(src);
        }
        markPriority(src, interPriority);
      }
    }
  }

  private void markPriority(String role, int priority) {
    if (priority > rolePriority.getOrDefault(role, 0)) {
      rolePriority.put(role, priority);
    }
  }

  /**
   * {@code taskAffinityOrder}: positive when {@code l} ranks higher (earlier in the task order,
   * then higher role priority), 0 for the same role or equal ranks.
   */
  int affinityOrder(TaskInfo l, TaskInfo r) {
    String lRole = roleOf.getOrDefault(l.uid(), "");
    String rRole = roleOf.getOrDefault(r.uid(), "");
    if (lRole.equals(rRole)) {
      return 0;
    }
    int c = Integer.compare(roleOrder.getOrDefault(lRole, 0), roleOrder.getOrDefault(rRole, 0));
    if (c != 0) {
      return c;
    }
    return Integer.compare(
        rolePriority.getOrDefault(lRole, 0), rolePriority.getOrDefault(rRole, 0));
  }

  /**
   * {@code checkTaskSetAffinity}: Σ over the roles in {@code roleCounts} of +count for affinity
   * (unless {@code onlyAnti}) and −count for anti-affinity with {@code role}.
   */
  int affinityWith(String role, Map<String, Integer> roleCounts, boolean onlyAnti) {
    if (role.isEmpty()) {
      return 0;
    }
    int score = 0;
    for (Map.Entry<String, Integer> e : roleCounts.entrySet()) {
      String other = e.getKey();
      int count = e.getValue();
      boolean same = other.equals(role);
      if (!onlyAnti) {
        boolean affinity =
            same ? selfAffinity.contains(role) : contains(interAffinity, role, other);
        if (affinity) {
          score += count;
        }
      }
      boolean anti =
          same ? selfAntiAffinity.contains(role) : contains(interAntiAffinity, role, other);
      if (anti) {
        score -= count;
      }
    }
    return score;
  }

  private static boolean contains(Map<String, Set<String>> m, String src, String dst) {
    Set<String> s = m.get(src);
    return s != null && s.contains(dst);
  }

  /**
   * {@code ConstructBucket}: the job's tasks whose role has an (anti-)affinity are sorted (placed
   * tasks first by node name, then by rank, role priority and pod name) and put in buckets: a
   * placed task in its node's bucket, a pending one in the bucket it likes best (the lighter on a
   * tie), or a new bucket when none is liked at least neutrally.
   */
  void construct(List<TaskInfo> jobTasks) {
    List<TaskInfo> withTopology = new ArrayList<>();
    for (TaskInfo task : jobTasks) {
      String role = roleOf(task);
      if (role.isEmpty() || !rolePriority.containsKey(role)) {
        continue;
      }
      roleOf.put(task.uid(), role);
      withTopology.add(task);
    }
    withTopology.sort(this::constructionOrder);

    Map<String, Bucket> byNode = new HashMap<>();
    for (TaskInfo task : withTopology) {
      String role = roleOf(task);
      Bucket selected = null;
      int maxAffinity = Integer.MIN_VALUE;
      if (!task.nodeName().isEmpty()) {
        maxAffinity = 0;
        selected = byNode.get(task.nodeName());
      } else {
        for (Bucket bucket : buckets) {
          int affinity = affinityWith(role, bucket.roles, false);
          if (affinity > maxAffinity) {
            maxAffinity = affinity;
            selected = bucket;
          } else if (affinity == maxAffinity
              && selected != null
              && bucket.reqScore < selected.reqScore) {
            selected = bucket;
          }
        }
      }
      if (maxAffinity < 0 || selected == null) {
        selected = new Bucket(buckets.size());
        buckets.add(selected);
        if (!task.nodeName().isEmpty()) {
          byNode.put(task.nodeName(), selected);
        }
      }
      addToBucket(selected, role, task);
    }
  }

  private int constructionOrder(TaskInfo l, TaskInfo r) {
    boolean lPlaced = !l.nodeName().isEmpty();
    boolean rPlaced = !r.nodeName().isEmpty();
    if (lPlaced || rPlaced) {
      if (lPlaced != rPlaced) {
        return lPlaced ? -1 : 1;
      }
      return l.nodeName().compareTo(r.nodeName());
    }
    int order = affinityOrder(l, r);
    if (order != 0) {
      return -order;
    }
    return l.name().compareTo(r.name());
  }

  private void addToBucket(Bucket bucket, String role, TaskInfo task) {
    bucketOf.put(task.uid(), bucket);
    bucket.add(role, task);
    int size = bucket.tasks.size() + bucket.boundTasks;
    if (size > bucketMaxSize) {
      bucketMaxSize = size;
    }
  }

  /** {@code GetBucket}: the task's bucket, or null outside any. */
  Bucket bucketOf(TaskInfo task) {
    return bucketOf.get(task.uid());
  }

  /** {@code TaskBound}: the task was placed on its node. */
  void bound(TaskInfo task) {
    String role = roleOf(task);
    if (!role.isEmpty()) {
      nodeRoles.computeIfAbsent(task.nodeName(), k -> new HashMap<>()).merge(role, 1, Integer::sum);
    }
    Bucket bucket = bucketOf(task);
    if (bucket != null) {
      bucket.bound(task);
    }
  }
}
