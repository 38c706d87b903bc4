package dev.caldera.dsl.internal.eval;

import java.util.Arrays;

/**
 * A compiled {@code classify} block for one slot: the first source whose value is a declared class
 * (directly, or through its mapping) decides, else the {@code otherwise} class.
 */
public final class ClassifierEval {

  private final Source[] sources;

  /**
   * The first two sources in fields: most classifiers have one or two, and a call site per field
   * sees one source class where a loop over the array would see every class.
   */
  private final Source first;

  private final Source second;
  private final String[] classNames;
  private final int otherwise;
  private final String[] sourceTexts;
  private final int[] lines;

  /**
   * @param keys per source, the mapping keys, or null for a direct source
   * @param values per source, the class index of each key
   * @param sourceTexts per source, its expression as written (for explanations)
   * @param lines per source, its line, then the line of {@code otherwise}
   */
  public ClassifierEval(
      StrNode[] sources,
      String[][] keys,
      int[][] values,
      String[] classNames,
      int otherwise,
      String[] sourceTexts,
      int[] lines) {
    this.classNames = intern(classNames);
    this.sources = new Source[sources.length];
    for (int i = 0; i < sources.length; i++) {
      this.sources[i] =
          keys[i] == null
              ? new Direct(sources[i], this.classNames)
              : new Mapped(sources[i], intern(keys[i]), values[i]);
    }
    this.first = this.sources.length > 0 ? this.sources[0] : null;
    this.second = this.sources.length > 1 ? this.sources[1] : null;
    this.otherwise = otherwise;
    this.sourceTexts = sourceTexts.clone();
    this.lines = lines.clone();
  }

  /**
   * Interned copies: when the compared values are interned too (literals, many parsers' keys),
   * {@code equals} answers from identity.
   */
  private static String[] intern(String[] strings) {
    String[] out = new String[strings.length];
    for (int i = 0; i < strings.length; i++) {
      out[i] = strings[i].intern();
    }
    return out;
  }

  /** One {@code from} line: the class its value names, or -1 for no (declared) value. */
  private abstract static class Source {
    abstract int classify(Frame f);

    abstract StrNode value();

    abstract String[] keys();

    abstract int[] classes();
  }

  /** {@code from EXPR}: the value must be a declared class name. */
  private static final class Direct extends Source {
    private final StrNode value;
    private final String[] names;
    private final int[] indices;
    private final StringTable classes;

    Direct(StrNode value, String[] names) {
      this.value = value;
      this.names = names;
      this.indices = new int[names.length];
      Arrays.setAll(indices, i -> i);
      this.classes = new StringTable(names, indices);
    }

    @Override
    StrNode value() {
      return value;
    }

    @Override
    String[] keys() {
      return names.clone();
    }

    @Override
    int[] classes() {
      return indices.clone();
    }

    @Override
    int classify(Frame f) {
      String v = value.eval(f);
      return v == null ? -1 : classes.get(v);
    }
  }

  /** {@code from EXPR { key: class, ... }}. */
  private static final class Mapped extends Source {
    private final StrNode value;
    private final String[] keys;
    private final int[] indices;
    private final StringTable classes;

    Mapped(StrNode value, String[] keys, int[] classes) {
      this.value = value;
      this.keys = keys;
      this.indices = classes.clone();
      this.classes = new StringTable(keys, classes);
    }

    @Override
    StrNode value() {
      return value;
    }

    @Override
    String[] keys() {
      return keys.clone();
    }

    @Override
    int[] classes() {
      return indices.clone();
    }

    @Override
    int classify(Frame f) {
      String v = value.eval(f);
      return v == null ? -1 : classes.get(v);
    }
  }

  /** What decided, for explanations: {@code from <source>} or {@code otherwise}. */
  public String describe(int decidedBy) {
    return decidedBy < 0 ? "otherwise" : "from " + sourceTexts[decidedBy];
  }

  /** The line of a source, or of {@code otherwise} for -1. */
  public int line(int decidedBy) {
    return decidedBy < 0 ? lines[lines.length - 1] : lines[decidedBy];
  }

  /** The class index of the frame's subject. */
  public int classify(Frame f) {
    if (sources.length > 2) {
      return classifyFromAll(f);
    }
    if (first != null) {
      int k = first.classify(f);
      if (k >= 0) {
        return k;
      }
      if (second != null) {
        k = second.classify(f);
        if (k >= 0) {
          return k;
        }
      }
    }
    return otherwise;
  }

  private int classifyFromAll(Frame f) {
    Source[] all = sources;
    for (int i = 0; i < all.length; i++) {
      int k = all[i].classify(f);
      if (k >= 0) {
        return k;
      }
    }
    return otherwise;
  }

  /**
   * As {@link #classify}, and tells which source decided: {@code decidedBy[0]} is the source index,
   * or -1 for {@code otherwise}.
   */
  public int decide(Frame f, int[] decidedBy) {
    for (int i = 0; i < sources.length; i++) {
      int k = sources[i].classify(f);
      if (k >= 0) {
        decidedBy[0] = i;
        return k;
      }
    }
    decidedBy[0] = -1;
    return otherwise;
  }

  int sourceCount() {
    return sources.length;
  }

  /** The value of source {@code i}. */
  StrNode sourceValue(int i) {
    return sources[i].value();
  }

  /** The keys of source {@code i}: its mapping's, or the class names for a direct source. */
  String[] sourceKeys(int i) {
    return sources[i].keys();
  }

  /** Beside {@link #sourceKeys}, the class index of each key. */
  int[] sourceClasses(int i) {
    return sources[i].classes();
  }

  int otherwise() {
    return otherwise;
  }

  /** How many classes it declares. */
  public int classCount() {
    return classNames.length;
  }

  /** The class names, by index. */
  public String className(int index) {
    return classNames[index];
  }
}
