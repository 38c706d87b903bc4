package dev.caldera.dsl.internal.eval;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.OwnerReference;

/**
 * How a compiled attribute finds its object in a frame: the task of a slot, or what it leads to.
 * One small class per object kind and slot, so that reading it is a field access.
 *
 * @param <T> the object type
 */
public abstract class Nav<T> {

  /** The object, or null when the subject has none. */
  public abstract T get(Frame f);

  /** The task of {@code slot}. */
  public static Nav<TaskInfo> task(int slot) {
    return slot == Frame.SUBJECT ? new SubjectTask() : new ObjectTask();
  }

  /** The job of the task of {@code slot}. */
  public static Nav<JobInfo> job(int slot) {
    return slot == Frame.SUBJECT ? new SubjectJob() : new ObjectJob();
  }

  /** The queue of {@code slot}: given, or the queue of its task's job. */
  public static Nav<QueueInfo> queue(int slot) {
    return switch (slot) {
      case Frame.SUBJECT -> new SubjectQueue();
      case Frame.OBJECT -> new ObjectQueue();
      default -> new GivenQueue();
    };
  }

  /** The node of the task of {@code slot}. */
  public static Nav<NodeInfo> node(int slot) {
    return slot == Frame.SUBJECT ? new SubjectNode() : new ObjectNode();
  }

  /** The first owner of the task of {@code slot}. */
  public static Nav<OwnerReference> owner(int slot) {
    return slot == Frame.SUBJECT ? new SubjectOwner() : new ObjectOwner();
  }

  static final class SubjectTask extends Nav<TaskInfo> {
    @Override
    public TaskInfo get(Frame f) {
      return f.subject();
    }
  }

  static final class ObjectTask extends Nav<TaskInfo> {
    @Override
    public TaskInfo get(Frame f) {
      return f.object();
    }
  }

  static final class SubjectJob extends Nav<JobInfo> {
    @Override
    public JobInfo get(Frame f) {
      return f.subjectJob();
    }
  }

  static final class ObjectJob extends Nav<JobInfo> {
    @Override
    public JobInfo get(Frame f) {
      return f.objectJob();
    }
  }

  static final class SubjectQueue extends Nav<QueueInfo> {
    @Override
    public QueueInfo get(Frame f) {
      return f.subjectQueue();
    }
  }

  static final class ObjectQueue extends Nav<QueueInfo> {
    @Override
    public QueueInfo get(Frame f) {
      return f.objectQueue();
    }
  }

  static final class GivenQueue extends Nav<QueueInfo> {
    @Override
    public QueueInfo get(Frame f) {
      return f.givenQueue();
    }
  }

  static final class SubjectNode extends Nav<NodeInfo> {
    @Override
    public NodeInfo get(Frame f) {
      return f.subjectNode();
    }
  }

  static final class ObjectNode extends Nav<NodeInfo> {
    @Override
    public NodeInfo get(Frame f) {
      return f.objectNode();
    }
  }

  static final class SubjectOwner extends Nav<OwnerReference> {
    @Override
    public OwnerReference get(Frame f) {
      return Frame.owner(f.subject());
    }
  }

  static final class ObjectOwner extends Nav<OwnerReference> {
    @Override
    public OwnerReference get(Frame f) {
      return Frame.owner(f.object());
    }
  }
}
