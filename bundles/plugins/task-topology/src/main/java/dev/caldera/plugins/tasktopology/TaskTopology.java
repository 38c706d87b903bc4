package dev.caldera.plugins.tasktopology;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's task topology as read from its PodGroup annotations. Lists keep empty role names from
 * redundant separators ({@code "ps,,worker;"}), as Volcano's {@code strings.Split} does.
 *
 * @param affinity groups of roles that want to share a node ({@value #AFFINITY})
 * @param antiAffinity groups of roles that want to be apart ({@value #ANTI_AFFINITY})
 * @param taskOrder roles in scheduling order, earlier first ({@value #TASK_ORDER})
 */
record TaskTopology(
    List<List<String>> affinity, List<List<String>> antiAffinity, List<String> taskOrder) {

  static final String AFFINITY = "volcano.sh/task-topology-affinity";
  static final String ANTI_AFFINITY = "volcano.sh/task-topology-anti-affinity";
  static final String TASK_ORDER = "volcano.sh/task-topology-task-order";

  /** The topology is unusable: a role is unknown in the job or repeated in one group. */
  static final class InvalidTopologyException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidTopologyException(String message) {
      super(message);
    }
  }

  /**
   * {@code readTopologyFromPgAnnotations}: the job's topology, or null when none of the three
   * annotations is set. Checks affinity, then anti-affinity, then task order.
   *
   * @throws InvalidTopologyException naming the first unknown or duplicated role
   */
  static TaskTopology read(JobInfo job) throws InvalidTopologyException {
    Map<String, String> annotations = job.podGroup().metadata().annotations();
    String affinity = annotations.get(AFFINITY);
    String antiAffinity = annotations.get(ANTI_AFFINITY);
    String taskOrder = annotations.get(TASK_ORDER);
    if (affinity == null && antiAffinity == null && taskOrder == null) {
      return null;
    }
    Set<String> roles = new HashSet<>();
    for (TaskInfo t : job.tasks()) {
      roles.add(t.taskRole());
    }
    List<List<String>> aff = affinity == null ? null : groups(job, roles, affinity);
    List<List<String>> anti = antiAffinity == null ? null : groups(job, roles, antiAffinity);
    List<String> order = null;
    if (taskOrder != null) {
      order = split(taskOrder, ',');
      check(job, roles, List.of(order));
    }
    return new TaskTopology(aff, anti, order);
  }

  private static List<List<String>> groups(JobInfo job, Set<String> roles, String annotation)
      throws InvalidTopologyException {
    List<List<String>> groups = new ArrayList<>();
    for (String group : split(annotation, ';')) {
      groups.add(split(group, ','));
    }
    check(job, roles, groups);
    return groups;
  }

  /** {@code affinityCheck}: every non-empty role exists in the job, once per group. */
  private static void check(JobInfo job, Set<String> roles, List<List<String>> groups)
      throws InvalidTopologyException {
    for (List<String> group : groups) {
      Set<String> seen = new HashSet<>();
      for (String role : group) {
        if (role.isEmpty()) {
          continue;
        }
        if (!roles.contains(role)) {
          throw new InvalidTopologyException(
              "task " + role + " do not exist in job <" + job.uid() + ">");
        }
        if (!seen.add(role)) {
          throw new InvalidTopologyException(
              "task " + role + " is duplicated in job <" + job.uid() + ">");
        }
      }
    }
  }

  /** Go's {@code strings.Split}: empty parts are kept, an empty text gives one empty part. */
  static List<String> split(String text, char separator) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == separator) {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }
}
