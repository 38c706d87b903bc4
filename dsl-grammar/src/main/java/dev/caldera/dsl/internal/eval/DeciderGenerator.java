package dev.caldera.dsl.internal.eval;

import static org.objectweb.asm.Opcodes.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * Generates a {@link ReclaimDecider} for a program whose reclaim patterns use one classifier: one
 * hidden class per program, whose method classifies the candidate and walks its class pair's rules
 * as straight-line code. The evaluators and accessors it calls are constants of the class (its
 * class data), so the JIT inlines each call without type checks; the candidate's job, queue and
 * node live in locals, where the tree evaluator keeps them in the frame. Expressions it does not
 * generate are evaluated by their node, after binding the frame's reclaimee slot.
 */
final class DeciderGenerator {

  /** Beyond this many classes per classifier the pair table's code grows too large to pay. */
  private static final int MAX_CLASSES = 16;

  private static final String FRAME = Type.getInternalName(Frame.class);
  private static final String TASK = "dev/caldera/api/info/TaskInfo";
  private static final String JOB = "dev/caldera/api/info/JobInfo";
  private static final String QUEUE = "dev/caldera/api/info/QueueInfo";
  private static final String NODE = "dev/caldera/api/info/NodeInfo";
  private static final String CONTEXT = "dev/caldera/dsl/PolicyContext";
  private static final String STRING = "java/lang/String";
  private static final Handle CLASS_DATA_AT =
      new Handle(
          H_INVOKESTATIC,
          "java/lang/invoke/MethodHandles",
          "classDataAt",
          MethodType.methodType(
                  Object.class, MethodHandles.Lookup.class, String.class, Class.class, int.class)
              .toMethodDescriptorString(),
          false);

  private static final int THIS = 0;
  private static final int F = 1;
  private static final int A = 2;
  private static final int T = 3;
  private static final int JOB_VALUE = 4;
  private static final int JOB_KNOWN = 5;
  private static final int QUEUE_VALUE = 6;
  private static final int QUEUE_KNOWN = 7;
  private static final int NODE_VALUE = 8;
  private static final int NODE_KNOWN = 9;
  private static final int BOUND = 10;
  private static final int B = 11;
  private static final int FIRST_TEMP = 12;

  private final List<Object> constants = new ArrayList<>();
  private final Map<Object, Integer> constantIndex = new IdentityHashMap<>();
  private MethodVisitor mv;
  private int nextTemp = FIRST_TEMP;

  private DeciderGenerator() {}

  /**
   * The decider of the reclaim rules, or null when the program's shape is not one it generates
   * (then the tree evaluator decides).
   *
   * @param classifier the object slot's classifier of the patterns, or null when no pattern names
   *     one
   * @param table per reclaimer class, per reclaimee class, the indices of the rules that apply
   */
  static ReclaimDecider generate(
      ClassifierEval classifier, Program.Rule[] rules, int[][][] table, boolean otherwise) {
    if (table.length > MAX_CLASSES) {
      return null;
    }
    DeciderGenerator g = new DeciderGenerator();
    byte[] bytes;
    try {
      bytes = g.bytes(classifier, rules, table, otherwise);
    } catch (MethodTooLargeException | ClassTooLargeException e) {
      // Rules this large run as fast in the tree evaluator as the JVM would run an uncompiled
      // method past its size limit; they are not worth splitting.
      return null;
    }
    try {
      MethodHandles.Lookup lookup =
          MethodHandles.lookup()
              .defineHiddenClassWithClassData(bytes, List.copyOf(g.constants), true);
      return (ReclaimDecider)
          lookup.findConstructor(lookup.lookupClass(), MethodType.methodType(void.class)).invoke();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot load the generated reclaim decider", e);
    }
  }

  private byte[] bytes(
      ClassifierEval classifier, Program.Rule[] rules, int[][][] table, boolean otherwise) {
    ClassWriter cw =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
          @Override
          protected String getCommonSuperClass(String type1, String type2) {
            // Only our locals and stack values meet at joins; the verifier treats interfaces as
            // Object, so Object is a correct (if loose) answer without loading classes.
            return "java/lang/Object";
          }
        };
    String name = Type.getInternalName(DeciderGenerator.class) + "$Decider";
    String superName = Type.getInternalName(ReclaimDecider.class);
    cw.visit(V17, ACC_FINAL | ACC_SUPER, name, null, superName, null);
    MethodVisitor init = cw.visitMethod(0, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(ALOAD, 0);
    init.visitMethodInsn(INVOKESPECIAL, superName, "<init>", "()V", false);
    init.visitInsn(RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();

    mv = cw.visitMethod(0, "allows", "(L" + FRAME + ";IL" + TASK + ";)Z", null, null);
    mv.visitCode();
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ASTORE, JOB_VALUE);
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, JOB_KNOWN);
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ASTORE, QUEUE_VALUE);
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, QUEUE_KNOWN);
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ASTORE, NODE_VALUE);
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, NODE_KNOWN);
    mv.visitInsn(ICONST_0);
    mv.visitVarInsn(ISTORE, BOUND);
    if (classifier == null) {
      mv.visitInsn(ICONST_0);
      mv.visitVarInsn(ISTORE, B);
    } else {
      classify(classifier);
    }
    int n = table.length;
    Label[] rows = labels(n);
    Label deny = new Label();
    Label allow = new Label();
    mv.visitVarInsn(ILOAD, A);
    mv.visitTableSwitchInsn(0, n - 1, deny, rows);
    for (int a = 0; a < n; a++) {
      mv.visitLabel(rows[a]);
      Label[] cells = labels(n);
      mv.visitVarInsn(ILOAD, B);
      mv.visitTableSwitchInsn(0, n - 1, deny, cells);
      for (int b = 0; b < n; b++) {
        mv.visitLabel(cells[b]);
        for (int i : table[a][b]) {
          Program.Rule r = rules[i];
          Label decided = r.allow() ? allow : deny;
          if (r.when() == null) {
            mv.visitJumpInsn(GOTO, decided);
            break;
          }
          bool(r.when());
          mv.visitJumpInsn(IFNE, decided);
        }
        mv.visitJumpInsn(GOTO, otherwise ? allow : deny);
      }
    }
    mv.visitLabel(allow);
    mv.visitInsn(ICONST_1);
    mv.visitInsn(IRETURN);
    mv.visitLabel(deny);
    mv.visitInsn(ICONST_0);
    mv.visitInsn(IRETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return cw.toByteArray();
  }

  private static Label[] labels(int n) {
    Label[] out = new Label[n];
    for (int i = 0; i < n; i++) {
      out[i] = new Label();
    }
    return out;
  }

  /** Stores the candidate's class in {@link #B}: the first source with a declared class. */
  private void classify(ClassifierEval classifier) {
    Label done = new Label();
    for (int i = 0; i < classifier.sourceCount(); i++) {
      Label next = new Label();
      int value = temp();
      str(classifier.sourceValue(i));
      mv.visitVarInsn(ASTORE, value);
      mv.visitVarInsn(ALOAD, value);
      mv.visitJumpInsn(IFNULL, next);
      lookup(value, classifier.sourceKeys(i), classifier.sourceClasses(i), done, next);
      mv.visitLabel(next);
    }
    push(classifier.otherwise());
    mv.visitVarInsn(ISTORE, B);
    mv.visitLabel(done);
  }

  /**
   * As a {@code switch} on a string: by hash, then {@code equals}; stores the key's class in {@link
   * #B} and jumps to {@code found}, or jumps to {@code missing}.
   */
  private void lookup(int value, String[] keys, int[] classes, Label found, Label missing) {
    TreeMap<Integer, List<Integer>> byHash = new TreeMap<>();
    for (int j = 0; j < keys.length; j++) {
      byHash.computeIfAbsent(keys[j].hashCode(), h -> new ArrayList<>()).add(j);
    }
    int[] hashes = byHash.keySet().stream().mapToInt(Integer::intValue).toArray();
    Label[] cases = labels(hashes.length);
    mv.visitVarInsn(ALOAD, value);
    mv.visitMethodInsn(INVOKEVIRTUAL, STRING, "hashCode", "()I", false);
    mv.visitLookupSwitchInsn(missing, hashes, cases);
    for (int h = 0; h < hashes.length; h++) {
      mv.visitLabel(cases[h]);
      for (int j : byHash.get(hashes[h])) {
        Label other = new Label();
        mv.visitVarInsn(ALOAD, value);
        mv.visitLdcInsn(keys[j]);
        mv.visitMethodInsn(INVOKEVIRTUAL, STRING, "equals", "(Ljava/lang/Object;)Z", false);
        mv.visitJumpInsn(IFEQ, other);
        push(classes[j]);
        mv.visitVarInsn(ISTORE, B);
        mv.visitJumpInsn(GOTO, found);
        mv.visitLabel(other);
      }
      mv.visitJumpInsn(GOTO, missing);
    }
  }

  /** Pushes the string value of {@code node}, or null. */
  private void str(StrNode node) {
    if (node instanceof StrNodes.Const c) {
      mv.visitLdcInsn(c.value());
    } else if (node instanceof StrNodes.Attr<?> a) {
      Label missing = new Label();
      Label end = new Label();
      int o = navigate(a.nav(), missing);
      constant(a.getter(), Getters.StrGetter.class);
      mv.visitVarInsn(ALOAD, F);
      mv.visitVarInsn(ALOAD, o);
      mv.visitMethodInsn(
          INVOKEINTERFACE,
          Type.getInternalName(Getters.StrGetter.class),
          "get",
          "(L" + FRAME + ";Ljava/lang/Object;)Ljava/lang/String;",
          true);
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(missing);
      mv.visitInsn(ACONST_NULL);
      mv.visitLabel(end);
    } else if (node instanceof StrNodes.MapValue<?> m) {
      Label missing = new Label();
      Label end = new Label();
      int o = navigate(m.nav(), missing);
      constant(m.getter(), Getters.MapGetter.class);
      mv.visitVarInsn(ALOAD, F);
      mv.visitVarInsn(ALOAD, o);
      mv.visitMethodInsn(
          INVOKEINTERFACE,
          Type.getInternalName(Getters.MapGetter.class),
          "get",
          "(L" + FRAME + ";Ljava/lang/Object;)Ljava/util/Map;",
          true);
      mv.visitLdcInsn(m.key());
      mv.visitMethodInsn(
          INVOKEINTERFACE, "java/util/Map", "get", "(Ljava/lang/Object;)Ljava/lang/Object;", true);
      mv.visitTypeInsn(CHECKCAST, STRING);
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(missing);
      mv.visitInsn(ACONST_NULL);
      mv.visitLabel(end);
    } else {
      bindFrame();
      constant(node, StrNode.class);
      mv.visitVarInsn(ALOAD, F);
      mv.visitMethodInsn(
          INVOKEVIRTUAL,
          Type.getInternalName(StrNode.class),
          "eval",
          "(L" + FRAME + ";)Ljava/lang/String;",
          false);
    }
  }

  /** Pushes 1 or 0: the value of {@code node}. */
  private void bool(BoolNode node) {
    Label no = new Label();
    Label end = new Label();
    if (node instanceof BoolNodes.Const c) {
      push(c.value() ? 1 : 0);
      return;
    } else if (node instanceof BoolNodes.And and) {
      bool(and.left());
      mv.visitJumpInsn(IFEQ, no);
      bool(and.right());
      mv.visitJumpInsn(GOTO, end);
    } else if (node instanceof BoolNodes.Or or) {
      Label yes = new Label();
      bool(or.left());
      mv.visitJumpInsn(IFNE, yes);
      bool(or.right());
      mv.visitJumpInsn(GOTO, end);
      mv.visitLabel(yes);
      push(1);
      mv.visitJumpInsn(GOTO, end);
    } else if (node instanceof BoolNodes.Not not) {
      bool(not.operand());
      push(1);
      mv.visitInsn(IXOR);
      return;
    } else if (node instanceof BoolNodes.Attr<?> a) {
      int o = navigate(a.nav(), no);
      constant(a.getter(), Getters.BoolGetter.class);
      mv.visitVarInsn(ALOAD, F);
      mv.visitVarInsn(ALOAD, o);
      mv.visitMethodInsn(
          INVOKEINTERFACE,
          Type.getInternalName(Getters.BoolGetter.class),
          "get",
          "(L" + FRAME + ";Ljava/lang/Object;)Z",
          true);
      mv.visitJumpInsn(GOTO, end);
    } else if (node instanceof BoolNodes.Exists x) {
      str(x.operand());
      mv.visitJumpInsn(IFNULL, no);
      push(1);
      mv.visitJumpInsn(GOTO, end);
    } else if (node instanceof BoolNodes.StrEquals eq) {
      int left = temp();
      str(eq.left());
      mv.visitVarInsn(ASTORE, left);
      str(eq.right());
      int right = temp();
      mv.visitVarInsn(ASTORE, right);
      Label different = eq.negated() ? end : no;
      if (eq.negated()) {
        // a missing left value equals nothing, so "!=" holds
        Label present = new Label();
        mv.visitVarInsn(ALOAD, left);
        mv.visitJumpInsn(IFNONNULL, present);
        push(1);
        mv.visitJumpInsn(GOTO, different);
        mv.visitLabel(present);
      } else {
        mv.visitVarInsn(ALOAD, left);
        mv.visitJumpInsn(IFNULL, no);
      }
      mv.visitVarInsn(ALOAD, left);
      mv.visitVarInsn(ALOAD, right);
      mv.visitMethodInsn(INVOKEVIRTUAL, STRING, "equals", "(Ljava/lang/Object;)Z", false);
      if (eq.negated()) {
        push(1);
        mv.visitInsn(IXOR);
      }
      mv.visitJumpInsn(GOTO, end);
    } else {
      bindFrame();
      constant(node, BoolNode.class);
      mv.visitVarInsn(ALOAD, F);
      mv.visitMethodInsn(
          INVOKEVIRTUAL, Type.getInternalName(BoolNode.class), "eval", "(L" + FRAME + ";)Z", false);
      return;
    }
    mv.visitLabel(no);
    push(0);
    mv.visitLabel(end);
  }

  /**
   * Stores what {@code nav} leads to in a new local and returns the local, or jumps to {@code
   * missing} when it leads to nothing.
   */
  private int navigate(Nav<?> nav, Label missing) {
    int o = temp();
    if (nav instanceof Nav.ObjectTask) {
      mv.visitVarInsn(ALOAD, T);
    } else if (nav instanceof Nav.ObjectJob) {
      job();
    } else if (nav instanceof Nav.ObjectQueue) {
      queue();
    } else if (nav instanceof Nav.ObjectNode) {
      node();
    } else if (nav instanceof Nav.ObjectOwner) {
      mv.visitVarInsn(ALOAD, T);
      mv.visitMethodInsn(
          INVOKESTATIC,
          FRAME,
          "owner",
          "(L" + TASK + ";)Ldev/caldera/api/model/OwnerReference;",
          false);
    } else {
      // the reclaimer's side and the given queue: bound once per call, cached by the frame
      constant(nav, Nav.class);
      mv.visitVarInsn(ALOAD, F);
      mv.visitMethodInsn(
          INVOKEVIRTUAL,
          Type.getInternalName(Nav.class),
          "get",
          "(L" + FRAME + ";)Ljava/lang/Object;",
          false);
    }
    mv.visitVarInsn(ASTORE, o);
    mv.visitVarInsn(ALOAD, o);
    mv.visitJumpInsn(IFNULL, missing);
    return o;
  }

  /** Pushes the candidate's job (or null), looked up on first use. */
  private void job() {
    Label known = new Label();
    Label store = new Label();
    mv.visitVarInsn(ILOAD, JOB_KNOWN);
    mv.visitJumpInsn(IFNE, known);
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ALOAD, T);
    mv.visitJumpInsn(IFNULL, store);
    mv.visitInsn(POP);
    mv.visitVarInsn(ALOAD, F);
    mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "context", "()L" + CONTEXT + ";", false);
    mv.visitVarInsn(ALOAD, T);
    mv.visitMethodInsn(INVOKEINTERFACE, CONTEXT, "job", "(L" + TASK + ";)L" + JOB + ";", true);
    mv.visitLabel(store);
    mv.visitVarInsn(ASTORE, JOB_VALUE);
    push(1);
    mv.visitVarInsn(ISTORE, JOB_KNOWN);
    mv.visitLabel(known);
    mv.visitVarInsn(ALOAD, JOB_VALUE);
  }

  /** Pushes the queue of the candidate's job (or null), looked up on first use. */
  private void queue() {
    Label known = new Label();
    Label store = new Label();
    mv.visitVarInsn(ILOAD, QUEUE_KNOWN);
    mv.visitJumpInsn(IFNE, known);
    int j = temp();
    job();
    mv.visitVarInsn(ASTORE, j);
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ALOAD, j);
    mv.visitJumpInsn(IFNULL, store);
    mv.visitInsn(POP);
    mv.visitVarInsn(ALOAD, F);
    mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "context", "()L" + CONTEXT + ";", false);
    mv.visitVarInsn(ALOAD, j);
    mv.visitMethodInsn(INVOKEINTERFACE, JOB, "queue", "()Ljava/lang/String;", true);
    mv.visitMethodInsn(
        INVOKEINTERFACE, CONTEXT, "queue", "(Ljava/lang/String;)L" + QUEUE + ";", true);
    mv.visitLabel(store);
    mv.visitVarInsn(ASTORE, QUEUE_VALUE);
    push(1);
    mv.visitVarInsn(ISTORE, QUEUE_KNOWN);
    mv.visitLabel(known);
    mv.visitVarInsn(ALOAD, QUEUE_VALUE);
  }

  /** Pushes the node the candidate runs on (or null), looked up on first use. */
  private void node() {
    Label known = new Label();
    mv.visitVarInsn(ILOAD, NODE_KNOWN);
    mv.visitJumpInsn(IFNE, known);
    mv.visitVarInsn(ALOAD, F);
    mv.visitVarInsn(ALOAD, T);
    mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "node", "(L" + TASK + ";)L" + NODE + ";", false);
    mv.visitVarInsn(ASTORE, NODE_VALUE);
    push(1);
    mv.visitVarInsn(ISTORE, NODE_KNOWN);
    mv.visitLabel(known);
    mv.visitVarInsn(ALOAD, NODE_VALUE);
  }

  /** Binds the frame's reclaimee slot to the candidate, once, for an evaluator node. */
  private void bindFrame() {
    Label bound = new Label();
    mv.visitVarInsn(ILOAD, BOUND);
    mv.visitJumpInsn(IFNE, bound);
    mv.visitVarInsn(ALOAD, F);
    mv.visitVarInsn(ALOAD, T);
    mv.visitMethodInsn(INVOKEVIRTUAL, FRAME, "bindObject", "(L" + TASK + ";)V", false);
    push(1);
    mv.visitVarInsn(ISTORE, BOUND);
    mv.visitLabel(bound);
  }

  /** Pushes {@code value} as a constant of the class, typed {@code type}. */
  private void constant(Object value, Class<?> type) {
    Integer index = constantIndex.get(value);
    if (index == null) {
      index = constants.size();
      constants.add(value);
      constantIndex.put(value, index);
    }
    mv.visitLdcInsn(new ConstantDynamic("_", Type.getDescriptor(type), CLASS_DATA_AT, index));
  }

  private int temp() {
    return nextTemp++;
  }

  private void push(int value) {
    if (value >= -1 && value <= 5) {
      mv.visitInsn(ICONST_0 + value);
    } else {
      mv.visitIntInsn(value <= Byte.MAX_VALUE ? BIPUSH : SIPUSH, value);
    }
  }
}
