package dev.caldera.plugins.capacity;

import dev.caldera.api.Session;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.support.resource.Resource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the queue tree of hierarchical mode. A queue is placed either by its {@code
 * volcano.sh/hierarchy} annotation (a path such as {@code root/eng/prod}, whose prefix names the
 * parent: the queue with that path, else an implicit queue made for it) or by {@code spec.parent}
 * (empty means {@code root}). {@code root} itself is implicit when the session has no queue of that
 * name.
 *
 * <p>Unlike Volcano, which stops scheduling everywhere when the tree is broken, a queue in a cycle
 * of {@code spec.parent} links, one whose parent does not exist, one below such a queue, and one
 * that declares a path already taken are reported and left out of the tree; the rest schedules.
 */
final class QueueTree {

  static final String HIERARCHY_ANNOTATION = "volcano.sh/hierarchy";
  static final String WEIGHTS_ANNOTATION = "volcano.sh/hierarchy-weights";

  static final String REASON_CYCLE = "QueueHierarchyCycle";
  static final String REASON_PARENT_MISSING = "ParentQueueNotFound";
  static final String REASON_ANCESTOR_LEFT_OUT = "ParentQueueLeftOut";
  static final String REASON_DUPLICATE_PATH = "DuplicateQueuePath";
  static final String REASON_INVALID_PATH = "InvalidQueuePath";
  static final String REASON_NOT_LEAF = "NotLeafQueue";

  private final Session session;
  private final Map<String, QueueAttr> byName = new TreeMap<>();
  private final List<QueueReports.Report> reports = new ArrayList<>();

  /** Annotation paths (root first), in queue-name order. */
  private final Map<QueueAttr, List<String>> declared = new LinkedHashMap<>();

  private final Map<QueueAttr, List<Integer>> declaredWeights = new HashMap<>();
  private final Map<String, QueueAttr> byPath = new HashMap<>();
  private final Map<QueueAttr, String> paths = new HashMap<>();
  private QueueAttr root;

  private QueueTree(Session session) {
    this.session = session;
  }

  /** The tree's attributes, linked, with refusals set; limits and usage are not computed yet. */
  static QueueTable build(Session session) {
    return new QueueTree(session).build();
  }

  private QueueTable build() {
    root = add(QueueTable.ROOT, session.queue(QueueTable.ROOT));
    byPath.put(QueueTable.ROOT, root);
    paths.put(root, QueueTable.ROOT);
    for (QueueInfo q : session.queues()) {
      if (!q.name().equals(QueueTable.ROOT)) {
        add(q.name(), q);
      }
    }
    readAnnotations();
    linkSpecParents();
    indexPaths();
    linkDeclaredPaths();
    return finish();
  }

  private QueueAttr add(String name, QueueInfo queue) {
    QueueAttr attr = new QueueAttr(name, queue);
    if (queue != null) {
      var deserved = queue.queue().deserved();
      attr.specDeserved = deserved != null && !deserved.isEmpty();
      attr.deserved = Resource.fromList(deserved);
      attr.specGuarantee = FlatQueues.guarantee(queue);
      attr.guarantee = attr.specGuarantee.copy();
      var capability = queue.queue().capability();
      attr.capability =
          capability == null || capability.isEmpty()
              ? Resource.empty()
              : Resource.fromList(capability);
      attr.weight = queue.weight();
    } else {
      attr.capability = Resource.empty();
    }
    byName.put(name, attr);
    return attr;
  }

  // ------------------------------------------------------------ annotations

  private void readAnnotations() {
    for (QueueAttr attr : byName.values()) {
      if (attr == root) {
        continue;
      }
      String path = attr.queue.queue().metadata().annotations().get(HIERARCHY_ANNOTATION);
      if (path == null || path.isBlank()) {
        continue;
      }
      List<String> segments = segments(path);
      if (!segments.isEmpty() && !segments.get(0).equals(QueueTable.ROOT)) {
        // Volcano's drf reads the first level as the root whatever its name, dropping it.
        report(
            attr,
            "root",
            REASON_INVALID_PATH,
            "annotation "
                + HIERARCHY_ANNOTATION
                + " of queue "
                + attr.name
                + " is \""
                + path
                + "\", which does not start with root/; it is read as root/"
                + String.join("/", segments)
                + " (Volcano would read its first level as the root)");
      }
      if (segments.isEmpty() || !segments.get(0).equals(QueueTable.ROOT)) {
        segments.add(0, QueueTable.ROOT);
      }
      if (segments.size() < 2) {
        report(
            attr,
            "path",
            REASON_INVALID_PATH,
            "annotation "
                + HIERARCHY_ANNOTATION
                + " of queue "
                + attr.name
                + " is \""
                + path
                + "\", which names the root; the annotation is ignored and spec.parent is used");
        continue;
      }
      String joined = String.join("/", segments);
      QueueAttr owner = byPath.putIfAbsent(joined, attr);
      if (owner != null) {
        attr.excluded = true;
        refuse(
            attr,
            "path",
            REASON_DUPLICATE_PATH,
            "queue "
                + attr.name
                + " declares the hierarchy path "
                + joined
                + ", which is already queue "
                + owner.name
                + "'s; "
                + attr.name
                + " is left out of the hierarchy");
        continue;
      }
      paths.put(attr, joined);
      declared.put(attr, segments);
      String weights = attr.queue.queue().metadata().annotations().get(WEIGHTS_ANNOTATION);
      if (weights != null && !weights.isBlank()) {
        List<Integer> parsed = weights(weights);
        if (parsed.size() == segments.size()) {
          declaredWeights.put(attr, parsed);
          attr.weight = parsed.get(parsed.size() - 1);
        } else {
          report(
              attr,
              "weights",
              REASON_INVALID_PATH,
              "annotation "
                  + WEIGHTS_ANNOTATION
                  + " of queue "
                  + attr.name
                  + " is \""
                  + weights
                  + "\", which does not give one integer per level of \""
                  + String.join("/", segments)
                  + "\"; spec.weight is used");
        }
      }
    }
  }

  private static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  /**
   * Integer weights, below 1 read as 1 (as hierarchical drf does); empty if one is not a number.
   */
  private static List<Integer> weights(String text) {
    List<Integer> out = new ArrayList<>();
    for (String s : text.split("/")) {
      try {
        out.add(Math.max(1, Integer.parseInt(s.trim())));
      } catch (NumberFormatException e) {
        return List.of();
      }
    }
    return out;
  }

  // ------------------------------------------------------------ spec.parent links

  /** Follows {@code spec.parent} from every queue without a path, leaving out cycles. */
  private void linkSpecParents() {
    Map<QueueAttr, QueueAttr> parentOf = new HashMap<>();
    for (QueueAttr start : byName.values()) {
      if (isPlaced(start)) {
        continue;
      }
      List<QueueAttr> chain = new ArrayList<>();
      QueueAttr cur = start;
      while (true) {
        if (isPlaced(cur)) {
          break;
        }
        if (cur.excluded) {
          excludeBelow(chain, cur);
          break;
        }
        int seen = chain.indexOf(cur);
        if (seen >= 0) {
          excludeCycle(chain, seen);
          break;
        }
        chain.add(cur);
        String parentName = cur.queue.parent().isEmpty() ? QueueTable.ROOT : cur.queue.parent();
        QueueAttr parent = byName.get(parentName);
        if (parent == null) {
          cur.excluded = true;
          refuse(
              cur,
              "parent",
              REASON_PARENT_MISSING,
              "the parent queue "
                  + parentName
                  + " of queue "
                  + cur.name
                  + " does not exist; "
                  + cur.name
                  + " is left out of the hierarchy");
          chain.remove(chain.size() - 1);
          excludeBelow(chain, cur);
          break;
        }
        parentOf.put(cur, parent);
        cur = parent;
      }
      for (QueueAttr a : chain) {
        if (!a.excluded) {
          a.parent = parentOf.get(a);
        }
      }
    }
  }

  private boolean isPlaced(QueueAttr attr) {
    return attr == root || declared.containsKey(attr) || (attr.parent != null && !attr.excluded);
  }

  private void excludeCycle(List<QueueAttr> chain, int start) {
    List<QueueAttr> cycle = chain.subList(start, chain.size());
    StringBuilder links = new StringBuilder();
    for (QueueAttr a : cycle) {
      links.append(a.name).append(" -> ");
    }
    links.append(cycle.get(0).name);
    for (QueueAttr a : cycle) {
      a.excluded = true;
      refuse(
          a,
          "parent",
          REASON_CYCLE,
          "queue "
              + a.name
              + " is in a cycle of spec.parent links ("
              + links
              + ") and is left out of the hierarchy");
    }
    excludeBelow(chain.subList(0, start), cycle.get(0));
  }

  /** Leaves out the queues of {@code chain}, each of which has {@code cause} above it. */
  private void excludeBelow(List<QueueAttr> chain, QueueAttr cause) {
    for (QueueAttr a : chain) {
      a.excluded = true;
      refuse(
          a,
          "parent",
          REASON_ANCESTOR_LEFT_OUT,
          "queue "
              + a.name
              + " is left out of the hierarchy because its ancestor "
              + cause.name
              + " is");
    }
  }

  // ------------------------------------------------------------ paths

  private void indexPaths() {
    for (QueueAttr attr : byName.values()) {
      if (!attr.excluded && attr != root && !declared.containsKey(attr)) {
        byPath.putIfAbsent(pathOf(attr), attr);
      }
    }
  }

  private String pathOf(QueueAttr attr) {
    String known = paths.get(attr);
    if (known != null) {
      return known;
    }
    String path = pathOf(attr.parent) + "/" + attr.name;
    paths.put(attr, path);
    return path;
  }

  private void linkDeclaredPaths() {
    for (Map.Entry<QueueAttr, List<String>> e : declared.entrySet()) {
      List<String> segments = e.getValue();
      e.getKey().parent = pathQueue(segments.subList(0, segments.size() - 1));
    }
    // An implicit level takes its weight from the first (by name) queue below it that gives one.
    Map<QueueAttr, QueueAttr> weightedBy = new HashMap<>();
    for (Map.Entry<QueueAttr, List<String>> e : declared.entrySet()) {
      List<Integer> weights = declaredWeights.get(e.getKey());
      if (weights == null) {
        continue;
      }
      List<String> segments = e.getValue();
      for (int depth = 1; depth < segments.size() - 1; depth++) {
        String levelPath = String.join("/", segments.subList(0, depth + 1));
        QueueAttr level = byPath.get(levelPath);
        if (level == null || level.queue != null) {
          continue;
        }
        QueueAttr first = weightedBy.putIfAbsent(level, e.getKey());
        if (first == null) {
          level.weight = weights.get(depth);
        } else if (level.weight != weights.get(depth)) {
          report(
              e.getKey(),
              "weights-conflict:" + levelPath,
              REASON_INVALID_PATH,
              "annotation "
                  + WEIGHTS_ANNOTATION
                  + " of queue "
                  + e.getKey().name
                  + " gives "
                  + levelPath
                  + " the weight "
                  + weights.get(depth)
                  + ", but queue "
                  + first.name
                  + "'s gives it "
                  + level.weight
                  + "; "
                  + first.name
                  + "'s (first by name) is used");
        }
      }
    }
  }

  /** The queue with this path, made as an implicit queue (with its own parents) if none has it. */
  private QueueAttr pathQueue(List<String> segments) {
    String path = String.join("/", segments);
    QueueAttr attr = byPath.get(path);
    if (attr != null) {
      return attr;
    }
    attr = add(path, null);
    attr.parent = pathQueue(segments.subList(0, segments.size() - 1));
    byPath.put(path, attr);
    paths.put(attr, path);
    return attr;
  }

  // ------------------------------------------------------------ finishing

  private QueueTable finish() {
    for (QueueAttr attr : byName.values()) {
      if (attr.parent != null && !attr.excluded) {
        attr.parent.children.add(attr);
      }
    }
    Deque<QueueAttr> todo = new ArrayDeque<>();
    todo.add(root);
    while (!todo.isEmpty()) {
      QueueAttr parent = todo.poll();
      for (QueueAttr child : parent.children) {
        QueueAttr[] ancestors = Arrays.copyOf(parent.ancestors, parent.ancestors.length + 1);
        ancestors[parent.ancestors.length] = parent;
        child.ancestors = ancestors;
        todo.add(child);
      }
    }
    for (QueueAttr attr : byName.values()) {
      if (attr.excluded) {
        attr.parent = null;
      } else if (!attr.isLeaf()) {
        List<String> names = new ArrayList<>();
        for (QueueAttr c : attr.children) {
          names.add(c.name);
        }
        attr.refusalReason = REASON_NOT_LEAF;
        attr.refusalMessage =
            "queue "
                + attr.name
                + " is not a leaf queue (its children: "
                + String.join(", ", names)
                + "); only leaf queues take jobs";
      }
    }
    return new QueueTable(true, byName, new ArrayList<>(byName.values()), root, reports);
  }

  private void refuse(QueueAttr attr, String kind, String reason, String message) {
    attr.refusalReason = reason;
    attr.refusalMessage = message;
    report(attr, kind, reason, message);
  }

  private void report(QueueAttr attr, String kind, String reason, String message) {
    reports.add(new QueueReports.Report(attr.name, kind, reason, message));
  }
}
