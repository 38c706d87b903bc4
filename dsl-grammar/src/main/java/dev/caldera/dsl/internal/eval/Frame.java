package dev.caldera.dsl.internal.eval;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.dsl.PolicyContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The subjects of one evaluation and what they lead to, looked up at most once per binding. Slot
 * {@link #SUBJECT} is the reclaimer (or the preemptive task), {@link #OBJECT} the reclaimee, and
 * {@link #GIVEN_QUEUE} the queue a preemptive rule is asked about. A frame belongs to one bound
 * function and is reused for every call: it is not thread-safe, and allocates nothing after
 * construction. The slots are plain fields (not arrays), and the navigations read them through
 * per-slot methods, because this is the innermost loop of reclaim.
 */
public final class Frame {

  public static final int SUBJECT = 0;
  public static final int OBJECT = 1;
  public static final int GIVEN_QUEUE = 2;

  private final PolicyContext context;
  private final int classifiers;
  private final int[] subjectClasses;
  private final int[] objectClasses;
  private final ClassifierEval[] subjectClassifiers;
  private final ClassifierEval[] objectClassifiers;
  private long now;

  private TaskInfo subject;
  private JobInfo subjectJob;
  private QueueInfo subjectQueue;
  private NodeInfo subjectNode;
  private boolean subjectJobKnown;
  private boolean subjectQueueKnown;
  private boolean subjectNodeKnown;

  private TaskInfo object;
  private JobInfo objectJob;
  private QueueInfo objectQueue;
  private NodeInfo objectNode;
  private boolean objectJobKnown;
  private boolean objectQueueKnown;
  private boolean objectNodeKnown;

  private QueueInfo givenQueue;

  /**
   * While explaining: attribute (as written, a relative one after its subject's role) → the value
   * read, in the order first read; null otherwise.
   */
  private Map<String, String> reads;

  private String[] roles;

  Frame(PolicyContext context, Program program) {
    this.context = context;
    this.classifiers = program.classifierCount();
    this.subjectClasses = new int[classifiers];
    this.objectClasses = new int[classifiers];
    this.subjectClassifiers = new ClassifierEval[classifiers];
    this.objectClassifiers = new ClassifierEval[classifiers];
    for (int c = 0; c < classifiers; c++) {
      subjectClassifiers[c] = program.classifier(SUBJECT, c);
      objectClassifiers[c] = program.classifier(OBJECT, c);
    }
  }

  /**
   * Records what the explaining program's attributes read from now on; {@code roles} names the
   * subject of each slot ({@code reclaimer}, {@code reclaimee}) for relative attributes.
   */
  void recordReads(String... roles) {
    this.roles = roles.clone();
    this.reads = new LinkedHashMap<>();
  }

  /** {@code attribute = value} per attribute read since {@link #recordReads}, in order. */
  List<String> reads() {
    List<String> out = new ArrayList<>();
    if (reads != null) {
      reads.forEach((attribute, value) -> out.add(attribute + " = " + value));
    }
    return out;
  }

  /** An attribute of the explaining program read {@code value}. */
  void read(int slot, String label, String value) {
    if (reads != null) {
      reads.put(readLabel(slot, label), value);
    }
  }

  /** A dimension of a resource-vector attribute read {@code amount}. */
  void readDimension(int slot, String label, String dimension, String amount) {
    if (reads == null) {
      return;
    }
    String key = readLabel(slot, label);
    String before = reads.get(key);
    String entry = dimension + " " + amount;
    if (before == null) {
      reads.put(key, entry);
    } else if (!(", " + before + ",").contains(", " + entry + ",")) {
      reads.put(key, before + ", " + entry);
    }
  }

  private String readLabel(int slot, String label) {
    return slot >= 0 && roles != null && slot < roles.length ? roles[slot] + " " + label : label;
  }

  /** Reads the clock once for a call. */
  void start() {
    now = context.nowMillis();
  }

  /** Makes {@code task} the subject of {@code slot}, forgetting what the previous one led to. */
  void bind(int slot, TaskInfo task) {
    if (slot == SUBJECT) {
      bindSubject(task);
    } else {
      bindObject(task);
    }
  }

  private void bindSubject(TaskInfo task) {
    subject = task;
    subjectJobKnown = false;
    subjectQueueKnown = false;
    subjectNodeKnown = false;
    for (int c = 0; c < classifiers; c++) {
      subjectClasses[c] = -1;
    }
  }

  /** As {@code bind(OBJECT, task)}: the reclaim loop calls it once per candidate. */
  void bindObject(TaskInfo task) {
    object = task;
    objectJobKnown = false;
    objectQueueKnown = false;
    objectNodeKnown = false;
    int[] classes = objectClasses;
    for (int c = 0; c < classes.length; c++) {
      classes[c] = -1;
    }
  }

  /** Makes {@code queue} the queue a preemptive rule is asked about. */
  void bindQueue(QueueInfo queue) {
    givenQueue = queue;
  }

  public PolicyContext context() {
    return context;
  }

  public long now() {
    return now;
  }

  public TaskInfo task(int slot) {
    return slot == SUBJECT ? subject : slot == OBJECT ? object : null;
  }

  public JobInfo job(int slot) {
    return slot == SUBJECT ? subjectJob() : slot == OBJECT ? objectJob() : null;
  }

  public QueueInfo queue(int slot) {
    return slot == SUBJECT ? subjectQueue() : slot == OBJECT ? objectQueue() : givenQueue;
  }

  public NodeInfo node(int slot) {
    return slot == SUBJECT ? subjectNode() : slot == OBJECT ? objectNode() : null;
  }

  /** The first owner reference of the pod of {@code slot}, or null. */
  public OwnerReference owner(int slot) {
    return owner(task(slot));
  }

  TaskInfo subject() {
    return subject;
  }

  TaskInfo object() {
    return object;
  }

  QueueInfo givenQueue() {
    return givenQueue;
  }

  JobInfo subjectJob() {
    if (!subjectJobKnown) {
      subjectJob = subject == null ? null : context.job(subject);
      subjectJobKnown = true;
    }
    return subjectJob;
  }

  JobInfo objectJob() {
    if (!objectJobKnown) {
      objectJob = object == null ? null : context.job(object);
      objectJobKnown = true;
    }
    return objectJob;
  }

  QueueInfo subjectQueue() {
    if (!subjectQueueKnown) {
      JobInfo j = subjectJob();
      subjectQueue = j == null ? null : context.queue(j.queue());
      subjectQueueKnown = true;
    }
    return subjectQueue;
  }

  QueueInfo objectQueue() {
    if (!objectQueueKnown) {
      JobInfo j = objectJob();
      objectQueue = j == null ? null : context.queue(j.queue());
      objectQueueKnown = true;
    }
    return objectQueue;
  }

  NodeInfo subjectNode() {
    if (!subjectNodeKnown) {
      subjectNode = node(subject);
      subjectNodeKnown = true;
    }
    return subjectNode;
  }

  NodeInfo objectNode() {
    if (!objectNodeKnown) {
      objectNode = node(object);
      objectNodeKnown = true;
    }
    return objectNode;
  }

  NodeInfo node(TaskInfo t) {
    return t == null || t.nodeName().isEmpty() ? null : context.node(t.nodeName());
  }

  static OwnerReference owner(TaskInfo t) {
    if (t == null) {
      return null;
    }
    List<OwnerReference> owners = t.pod().metadata().ownerReferences();
    return owners.isEmpty() ? null : owners.get(0);
  }

  /** The index of the subject's class under classifier {@code c}, computed once per binding. */
  public int classOf(int slot, int c) {
    return slot == SUBJECT ? subjectClass(c) : objectClass(c);
  }

  int subjectClass(int c) {
    int k = subjectClasses[c];
    if (k < 0) {
      k = subjectClassifiers[c].classify(this);
      subjectClasses[c] = k;
    }
    return k;
  }

  /**
   * As {@link #bindObject} followed by {@link #objectClass}{@code (c)}, for the reclaim loop, which
   * always asks for the class of a new candidate first.
   */
  int bindObjectAndClassify(TaskInfo task, int c) {
    bindObject(task);
    int k = objectClassifiers[c].classify(this);
    objectClasses[c] = k;
    return k;
  }

  int objectClass(int c) {
    int k = objectClasses[c];
    if (k < 0) {
      k = objectClassifiers[c].classify(this);
      objectClasses[c] = k;
    }
    return k;
  }
}
