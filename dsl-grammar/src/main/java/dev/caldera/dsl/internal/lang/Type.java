package dev.caldera.dsl.internal.lang;

import java.util.List;

/**
 * The type of an expression. Strings may carry a closed set of symbols (a queue state, the classes
 * of a classifier): a bare name compared with such a string must be one of them.
 *
 * @param entity for {@link Kind#ENTITY}: the object kind
 * @param symbols for a symbolic string: the allowed values, else null
 * @param symbolKind for a symbolic string: what the values are, e.g. {@code queue state}
 */
public record Type(Kind kind, Entity<?> entity, List<String> symbols, String symbolKind) {

  /** Kinds of values. */
  public enum Kind {
    BOOL("boolean"),
    STRING("string"),
    NUMBER("number"),
    DURATION("duration"),
    RESOURCES("resources"),
    MAP("map"),
    ENTITY("object"),
    /** Already reported: no further errors about it. */
    ERROR("error");

    private final String display;

    Kind(String display) {
      this.display = display;
    }
  }

  public static final Type BOOL = of(Kind.BOOL);
  public static final Type STRING = of(Kind.STRING);
  public static final Type NUMBER = of(Kind.NUMBER);
  public static final Type DURATION = of(Kind.DURATION);
  public static final Type RESOURCES = of(Kind.RESOURCES);
  public static final Type MAP = of(Kind.MAP);
  public static final Type ERROR = of(Kind.ERROR);

  public Type {
    symbols = symbols == null ? null : List.copyOf(symbols);
  }

  private static Type of(Kind kind) {
    return new Type(kind, null, null, null);
  }

  /** The type of an object (task, podgroup...). */
  public static Type entity(Entity<?> entity) {
    return new Type(Kind.ENTITY, entity, null, null);
  }

  /** A string restricted to {@code symbols}. */
  public static Type symbols(String symbolKind, List<String> symbols) {
    return new Type(Kind.STRING, null, symbols, symbolKind);
  }

  public boolean is(Kind k) {
    return kind == k;
  }

  /** How messages name the type. */
  public String display() {
    return kind == Kind.ENTITY ? entity.name() : kind.display;
  }
}
